#!/bin/sh
# Configure and build in a throwaway folder (quietly), then run CTest.
set -e
b=$(mktemp -d)
trap 'rm -rf "$b"' EXIT
cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$b" >/dev/null
cd "$b"
ctest --output-on-failure
