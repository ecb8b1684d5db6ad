"""Linters of the languages and formats no compiler family covers: Puppet
manifests (puppet-lint), TSLint, remark-lint (Markdown), buf (Protocol
Buffers), dotenv-linter (`.env` files); one module per tool.  Each finding is a compile record at its
file and line; a finding the tool reports as a warning is a warning hit
(docs/warnings.md: a failure when the run failed because of it, as
`remark --frail` or `puppet-lint --fail-on-warnings` make it)."""

from __future__ import annotations

from . import dotenv, proto, puppet, remark, tslint

ECOSYSTEM = "Linters"

__all__ = ["dotenv", "proto", "puppet", "remark", "tslint"]
