#!/usr/bin/env bash
# Install the peers the full benchmark compares faultlens with (Debian packages):
#   vim            -> `vim -es` with an errorformat and :cgetfile
#   efm-langserver -> Vim's errorformat ported to Go, behind an LSP (didOpen -> publishDiagnostics)
#   time           -> /usr/bin/time -v for the peers' peak RSS
# grep comes with every Debian system. Idempotent; needs root (or sudo).
#
#   benchmarks/install-peers.sh
set -euo pipefail
need=()
command -v vim >/dev/null || need+=(vim)
command -v efm-langserver >/dev/null || need+=(efm-langserver)
[ -x /usr/bin/time ] || need+=(time)
command -v taskset >/dev/null || need+=(util-linux)
if [ ${#need[@]} -gt 0 ]; then
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
echo "vim: $(vim --version | head -n1)"
echo "efm-langserver: $(efm-langserver -v 2>&1 | head -n1)"
