"""Plugin and extension start-up failures: an invalid manifest, a plugin
that is not there, a missing plugin dependency, a hook that fails to load;
one module per kind, and the placement of their records (placement.py).

The record is placed in the plugin's manifest or configuration whenever
one is named: a JSON syntax error at its line and column (tools that print
only an offset, or nothing, are located by parsing the manifest in
`placement.place_records`, run when the output has been read), a missing
dependency at the line of the config that imports it, an unknown hook at
its `def`.  The hint carries `plugin`, `manifest`, `dependency`, `hook`.

Precedence: these rules run before the generic Python and Node rules
(common.PRIORITY): "No module named 'x'" while a plugin is imported is
plugin_startup, not compile.
"""

from __future__ import annotations

from . import agent_hosts, dependencies, editors, hooks, manifest

__all__ = ["agent_hosts", "dependencies", "editors", "hooks", "manifest"]
