#!/usr/bin/env bash
# Real tools used by the real_tool tests (recipes verified by re-running tsc,
# go, g++ and cargo).  The samples' other tools are for capturing samples
# again (scripts/install-tools.sh all) and are not needed by the suite.
exec "$(dirname "$0")/../install-tools.sh" test
