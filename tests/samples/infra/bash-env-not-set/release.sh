#!/usr/bin/env bash
set -euo pipefail
region=${AWS_REGION:?set AWS_REGION to the target region}
echo "releasing to $region"
