"""The plugin rules' priority: before the generic Python and Node rules, so
that "No module named 'x'" while a plugin is imported is plugin_startup."""

from __future__ import annotations

PRIORITY = 50
