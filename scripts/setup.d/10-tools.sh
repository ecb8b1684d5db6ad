#!/usr/bin/env bash
# Real tools used by the real_tool tests (recipes verified by re-running them).
exec "$(dirname "$0")/../install-tools.sh" all
