#!/bin/bash
# Copy the build to the target folder.
target=$1
files=$(ls build/*.tar.gz)
for f in $files; do
  cp $f $target
done
cd $target
echo "copied to $target"
rsync -a $@ "$target/"
