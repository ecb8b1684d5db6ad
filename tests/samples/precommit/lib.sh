# Sourced by */make-repo.sh after `set -euo pipefail` and `here=...`: copies the
# case's files (app/, .pre-commit-config.yaml) into a throw-away git repository,
# runs `pre-commit run --all-files [ARGS]` there with the hooks of tools/lint (black,
# isort, flake8, pre-commit-hooks' fixers: scripts/install-tools.sh lint_tools)
# and leaves output.txt and cmd.txt here. Not a sample itself.
root=$(cd "$here/../../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp GIT_CONFIG_NOSYSTEM=1 LC_ALL=C.UTF-8 PRE_COMMIT_HOME=$tmp/cache NO_COLOR=1
export PATH="$root/tools/lint/bin:$PATH"
capture_pre_commit() {
  cd "$tmp" && git init -q repo && cd repo
  cp -r "$here/app" "$here/.pre-commit-config.yaml" .
  git add . && git -c user.name=Dev -c user.email=dev@example.com commit -qm "case"
  set +e
  pre-commit run --all-files "$@" >"$here/output.txt" 2>&1
  local status=$?
  set -e
  { echo "pre-commit run --all-files${*:+ $*}   ($(pre-commit --version))"; echo "# exit status $status"
    echo "# run in a git repository of this folder's app/ and .pre-commit-config.yaml: make-repo.sh"; } >"$here/cmd.txt"
}
