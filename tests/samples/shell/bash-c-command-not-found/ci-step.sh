#!/bin/bash
# What a CI step runs: install the generated client, then test it.
set -e
echo "generating the API client"
protoc --python_out=gen api.proto
pytest -q tests
