#!/usr/bin/env bash
# Vim for the errorformat differential test (tests/test_errorformat_vim.py):
# real Vim (`vim -es -u NONE`) reads the same output with the same
# 'errorformat' as faultlens, over every compiler plugin of its runtime
# ($VIMRUNTIME/compiler/*.vim, from vim-runtime).  Debian's `vim` is the
# smallest package with +eval (json_encode, getqflist) and the runtime.
set -euo pipefail
have_runtime() {
  command -v vim >/dev/null 2>&1 || return 1
  rt=$(vim -es -u NONE -i NONE -N </dev/null '+call writefile([$VIMRUNTIME], "/dev/stdout")' '+qa!' 2>&1 | tail -n1 | tr -d '\r')
  [ -n "$rt" ] && ls "$rt"/compiler/*.vim >/dev/null 2>&1
}
if ! have_runtime; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "20-vim: need root to apt-get install vim" >&2; exit 1; }
    sudo=sudo
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=900 install -y -qq vim vim-runtime >/dev/null
fi
have_runtime || { echo "20-vim: vim or its runtime's compiler plugins are missing" >&2; exit 1; }
echo "20-vim: $(vim --version | sed -n 1p), runtime $(vim -es -u NONE -i NONE -N '+call writefile([$VIMRUNTIME], "/dev/stdout")' '+qa!' 2>&1 | tail -n1)"
