#!/usr/bin/env bash
# Capture real tool output for the errorformat differential test: the output
# a Vim compiler plugin's tool prints, read by real Vim and by faultlens with
# that plugin's errorformat (tests/test_errorformat_vim.py).
#
#   scripts/new-efm-sample.sh COMPILER CASE [--version "tool --version"] -- CMD [ARGS...]
#
# Runs CMD inside tests/errorformat/COMPILER/CASE/ (put the broken input there
# first, as the plugin's makeprg would run it), writes output.txt and cmd.txt
# as scripts/new-sample.sh does (no expected.json: real Vim is the oracle).
exec env FAULTLENS_SAMPLES_DIR=tests/errorformat "$(dirname "$0")/new-sample.sh" "$@"
