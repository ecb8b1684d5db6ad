#!/bin/bash
target=$1
cd "$target"
echo "deploying to $target"
