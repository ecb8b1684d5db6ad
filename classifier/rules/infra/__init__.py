"""Infrastructure failures: containers, clusters, deploys, CI, the network,
the disk, the environment.  One family, one module per kind of tool.

Every record says in `hint["transient"]` whether the backoff retry (1 s,
2 s, 4 s) can help (infra/common.py); the hint carries what a human needs
(`variable`, `path`, `host`, `status`, `exit_code`, `resource`).

Precedence: the generic network rules (infra/network.py) have the lowest
priority of all families (NETWORK_PRIORITY): an MCP client that cannot
connect is mcp_startup (rules/mcp/), an LLM API's 429/5xx is
prompt_delivery (rules/agent/), and both run first.
"""

from __future__ import annotations

from . import (
    action_fetch,
    clients,
    cloud_permission,
    containers,
    host,
    missing_ref,
    network,
    pipelines,
    pr_checks,
    rate_limit,
    runner_cancel,
    runner_lost,
    runner_timeout,
)

__all__ = [
    "action_fetch",
    "clients",
    "cloud_permission",
    "containers",
    "host",
    "missing_ref",
    "network",
    "pipelines",
    "pr_checks",
    "rate_limit",
    "runner_cancel",
    "runner_lost",
    "runner_timeout",
]
