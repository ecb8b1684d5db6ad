python3 ../../../../scripts/github_api_standin.py 18766 &
sleep 1
curl -sS --fail-with-body -X POST -H "Accept: application/vnd.github+json" -H "Authorization: Bearer standin-token" \
  http://127.0.0.1:18766/repos/octo-org/app/issues/12/labels -d '{"labels":["needs-triage"]}'
