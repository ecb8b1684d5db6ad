# Sourced by */make-repo.sh after `set -euo pipefail` and `here=...`: a temp dir
# removed on exit, a fixed identity and fixed dates (so the hashes are stable),
# and the helpers below. Not a sample itself.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp GIT_CONFIG_NOSYSTEM=1 LC_ALL=C
export GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.com GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.com
export GIT_AUTHOR_DATE=2026-01-20T10:00:00Z GIT_COMMITTER_DATE=2026-01-20T10:00:00Z
git config --global init.defaultBranch main
# capture "CMD..." : run it in the current repo, record output and command
capture() {
  set +e
  "$@" >"$here/output.txt" 2>&1
  local status=$?
  set -e
  { echo "$*   ($(git --version))"; echo "# exit status $status"; echo "# repository built by make-repo.sh (run it to capture again)"; } >"$here/cmd.txt"
}
# base repo with src/app.py, an "origin" bare clone and a second clone "other"
base_repo() {
  cd "$tmp" && git init -q repo && cd repo
  mkdir src
  printf '"""The app."""\n\n\ndef greet(name: str) -> str:\n    return f"Hello, {name}"\n\n\ndef farewell(name: str) -> str:\n    return f"Bye, {name}"\n' >src/app.py
  git add . && git commit -qm "base"
  git clone -q --bare . "$tmp/origin.git"
  git remote add origin "$tmp/origin.git" && git fetch -q origin && git branch -q -u origin/main
  git clone -q "$tmp/origin.git" "$tmp/other"
}
# a commit in "other", pushed to origin
upstream_change() {
  (cd "$tmp/other" && sed -i "s/$1/$2/" src/app.py && git commit -qam "${3:-upstream change}" && git push -q origin main)
}
local_change() {
  sed -i "s/$1/$2/" src/app.py && git commit -qam "${3:-local change}"
}
