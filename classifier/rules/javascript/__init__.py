"""JavaScript builds and runs: esbuild, vite, webpack, eslint and Node.js
errors; one module per kind of tool.  What they share with the test
runners (stack frames, diffs, module names) is rules/js_frames.py.
"""

from __future__ import annotations

from . import bundlers, eslint, node, vite

__all__ = ["bundlers", "eslint", "node", "vite"]
