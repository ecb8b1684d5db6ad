#!/usr/bin/env bash
# Builds a throw-away repository whose pre-commit hook lost its executable bit
# (checked out from an archive), commits in it, and leaves output.txt and cmd.txt here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../git/lib.sh
source "$here/../../git/lib.sh"
cd "$tmp" && git init -q repo && cd repo
printf '#!/bin/sh\nexec ruff check .\n' >.git/hooks/pre-commit
chmod 644 .git/hooks/pre-commit
echo "print('hi')" >app.py && git add app.py
capture git commit -m "add app"
