#!/bin/sh
# A throwaway repository: main with a towncrier configuration, and a
# feature branch whose commit changes code but adds no news fragment.
set -e
cd "$1"
git init -q -b main .
git config user.email ci@example.com
git config user.name ci
cat > pyproject.toml <<'TOML'
[project]
name = "shop"
version = "1.0.0"

[tool.towncrier]
directory = "changes"
filename = "CHANGELOG.md"
TOML
mkdir -p changes src && touch changes/.gitkeep && echo "VAT = 20" > src/tax.py
git add -A && git commit -qm base
git checkout -qb feature
echo "VAT = 21" > src/tax.py && git commit -qam "raise VAT"
