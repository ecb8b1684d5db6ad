#!/usr/bin/env bash
# PostgreSQL's server binaries for the team-history tests (tests/team/): the
# tests make a throwaway cluster themselves (initdb, pg_ctl on a free
# loopback port, as the `postgres` user when run as root) and remove it; no
# service is started here.  Debian's `postgresql` package.
set -euo pipefail
have_server() {
  command -v pg_ctl >/dev/null 2>&1 && return 0
  ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1
}
if ! have_server || ! id postgres >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "70-postgres: need root to apt-get install postgresql" >&2; exit 1; }
    sudo=sudo
  fi
  $sudo apt-get update -qq
  # the package's own cluster is not wanted: the tests make their own
  DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=900 install -y -qq \
    --no-install-recommends postgresql >/dev/null
  for c in $(pg_lsclusters -h 2>/dev/null | awk '{print $1"/"$2}'); do
    $sudo pg_ctlcluster "${c%/*}" "${c#*/}" stop 2>/dev/null || true
  done
fi
have_server || { echo "70-postgres: PostgreSQL's server binaries are missing" >&2; exit 1; }
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
echo "70-postgres: $("$bin/postgres" --version)"
