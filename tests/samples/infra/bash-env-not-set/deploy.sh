#!/usr/bin/env bash
set -euo pipefail
: "${DEPLOY_TOKEN:?}"
echo "deploying with token"
