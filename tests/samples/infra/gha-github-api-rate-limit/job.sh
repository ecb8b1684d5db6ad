python3 ../../../../scripts/github_api_standin.py 18767 &
sleep 1
curl -sS --fail-with-body -H "Accept: application/vnd.github+json" http://127.0.0.1:18767/rate-limited/repos/octo-org/app/releases/latest
