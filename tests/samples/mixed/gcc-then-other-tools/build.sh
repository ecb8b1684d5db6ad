#!/bin/sh
# Each tool's failure printed right after a gcc error, as a build script that
# keeps going prints them.  The git part makes a clone one commit behind its
# upstream in a temporary folder first (quietly).
gcc -c util.c -o /dev/null
tsc --noEmit --pretty false app.ts
gcc -c util.c -o /dev/null
rustc --crate-type lib --emit=metadata -o /dev/null lib.rs
gcc -c util.c -o /dev/null
python -m pytest -q -p no:cacheprovider test_math.py
gcc -c util.c -o /dev/null
npm run lint
tmp=$(mktemp -d)
{
  git init -q --bare -b main "$tmp/origin.git"
  git clone -q "$tmp/origin.git" "$tmp/a" && git -C "$tmp/a" -c user.name=t -c user.email=t@t commit -q --allow-empty -m one && git -C "$tmp/a" push -q origin main
  git clone -q "$tmp/origin.git" "$tmp/b"
  git -C "$tmp/a" -c user.name=t -c user.email=t@t commit -q --allow-empty -m two && git -C "$tmp/a" push -q origin main
  git -C "$tmp/b" fetch -q
} >/dev/null 2>&1
gcc -c util.c -o /dev/null
git -C "$tmp/b" status -sb
rm -rf "$tmp"
