#!/bin/sh
# Configure and build in a throwaway folder (quietly), then `make test`,
# as CI scripts run CTest through the generated Makefile.
set -e
b=$(mktemp -d)
trap 'rm -rf "$b"' EXIT
cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$b" >/dev/null
make -C "$b" --no-print-directory test
