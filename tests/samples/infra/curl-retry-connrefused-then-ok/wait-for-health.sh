#!/usr/bin/env bash
# A CI step waiting for a service that comes up late: the health server starts
# after 2 s on 127.0.0.1:18777; curl retries the refused connection until it answers.
set -euo pipefail
mkdir -p www && echo ok > www/health
(sleep 2; exec python3 -m http.server 18777 --bind 127.0.0.1 --directory www >/dev/null 2>&1) &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf www' EXIT
curl -sS --fail --retry 5 --retry-connrefused --retry-delay 1 http://127.0.0.1:18777/health
echo "service healthy"
