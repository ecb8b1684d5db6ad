#!/usr/bin/env bash
# A CI step polling a health endpoint until the service is up (503 while it warms up).
set -euo pipefail
python3 health_server.py &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
sleep 0.5
for attempt in 1 2 3 4 5; do
  if curl -sS --fail http://127.0.0.1:18778/health; then
    echo "service healthy after $attempt attempts"
    exit 0
  fi
  echo "health check failed (attempt $attempt), retrying in 1s"
  sleep 1
done
exit 1
