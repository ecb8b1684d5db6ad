#!/bin/sh
for f in $(ls *.txt); do
  echo $f
done
[ $1 == x ] && cd $dir
