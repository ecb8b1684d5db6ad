# pr-size-labeler (CodelyTV/pr-size-labeler@4ec6770, src/) run as its
# action runs it, against standin.py on loopback: the README's inputs with
# fail_if_xl 'true'.
set -e
home=${PR_SIZE_LABELER_HOME:-/tmp/cirtools/pr-size-labeler}
exec 3< <(python3 standin.py)
read -r port <&3
event=$(mktemp)
echo '{"pull_request": {"number": 42}}' >"$event"
export GITHUB_REPOSITORY=acme/shop GITHUB_EVENT_PATH=$event GITHUB_TOKEN=x
export GITHUB_API_URL=http://127.0.0.1:$port
for f in ensure github github_actions labeler misc; do source "$home/src/$f.sh"; done
trap 'pkill -f "python3 standin.py" || true; rm -f "$event"' EXIT
labeler::label size/xs 10 size/s 100 size/m 500 size/l 1000 size/xl true \
  "This PR exceeds the recommended size of 1000 lines." "" false false
