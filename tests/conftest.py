from __future__ import annotations

# tests/samples/ holds the broken inputs the samples were captured from
# (failing test files among them): data, never part of this suite.
collect_ignore_glob = ["samples/*", "rerun_samples/*"]
