#!/usr/bin/env bash
# A push over SSH that the server refuses for want of a key: git's output for
# "Permission denied (publickey)". Needs an sshd listening on 127.0.0.1:2222
# that accepts no key (the capture used a throw-away sshd: HostKey in a temp
# dir, AuthorizedKeysFile pointing at a missing file, PasswordAuthentication no).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp GIT_CONFIG_NOSYSTEM=1 LC_ALL=C
export GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.com GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.com
export GIT_AUTHOR_DATE=2026-01-20T10:00:00Z GIT_COMMITTER_DATE=2026-01-20T10:00:00Z
export GIT_SSH_COMMAND="ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o IdentitiesOnly=yes -o IdentityFile=$tmp/no-such-key -o LogLevel=ERROR"
git config --global init.defaultBranch main
cd "$tmp" && git init -q repo && cd repo
echo "hello" >README.md && git add . && git commit -qm "base"
git remote add origin ssh://git@127.0.0.1:2222/srv/git/app.git
set +e
git push origin main >"$here/output.txt" 2>&1
status=$?
set -e
{ echo "git push origin main   ($(git --version), $(ssh -V 2>&1))"; echo "# exit status $status"; echo "# remote: a local sshd on 127.0.0.1:2222 that accepts no key; repository built by make-repo.sh"; } >"$here/cmd.txt"
