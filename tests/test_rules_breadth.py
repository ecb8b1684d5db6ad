"""The mcp_startup, plugin_startup, infra and prompt_delivery rules beyond
their samples: precedence between them, the hint data the recipes rely on,
and the placement of location-less records in config files and manifests."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from faultlens.classifier import mcpconfig
from faultlens.classifier.engine import Options, classify_text
from faultlens.classifier.rules.agent import common as agent_common
from faultlens.classifier.rules.agent import limits as agent_limits
from faultlens.classifier.rules.base import Hit, Rule
from faultlens.classifier.rules.infra import common as infra_common
from faultlens.classifier.rules.mcp import common as mcp_common
from faultlens.classifier.rules.plugin import common as plugin_common
from faultlens.classifier.rules.plugin import placement as plugin_placement
from faultlens.classifier.rules.registry import all_rules
from faultlens.classifier.taxonomy import FailureType

SAMPLES = Path(__file__).parent / "samples"


def sample_output(family: str, case: str) -> str:
    return (SAMPLES / family / case / "output.txt").read_text()


def kinds(records: Iterable[object]) -> list[str]:
    return [r.failure_type.value for r in records]  # type: ignore[attr-defined]


# -- precedence ------------------------------------------------------------------------


def test_mcp_rules_run_before_every_infra_and_agent_rule():
    by_family: dict[str, list[int]] = {}
    for r in all_rules():
        by_family.setdefault(r.family, []).append(r.priority)
    assert min(by_family["mcp"]) > max(by_family["infra"])
    assert min(by_family["mcp"]) > max(by_family["agent"])
    assert min(by_family["agent"]) > max(by_family["infra"])
    assert max(by_family["infra"]) > infra_common.NETWORK_PRIORITY
    # the generic rules come last: GNU-format lines and a harness's bare count line
    # (`FAILED: 3 of 120 tests`, rules/harness.py) stand only when nothing else explains
    specific = [
        r for r in all_rules() if r.id != "infra.network" and r.family not in ("gnu", "harness")
    ]
    assert min(r.priority for r in specific) > infra_common.NETWORK_PRIORITY
    # the generic GNU-format rules (rules/gnu.py) come after everything, network included
    assert max(r.priority for r in all_rules() if r.family == "gnu") < infra_common.NETWORK_PRIORITY


def test_connection_refused_while_an_mcp_client_connects_is_mcp_startup_not_infra(tmp_path):
    out = sample_output("mcp", "ts-sdk-http-refused")
    assert "ECONNREFUSED" in out
    records = classify_text(out, Options(cwd=str(tmp_path)))
    assert kinds(records) == ["mcp_startup"]
    assert records[0].rule == "mcp.client_connect"


def test_the_same_refused_line_outside_mcp_output_is_transient_infra(tmp_path):
    records = classify_text(
        "psql: error: connect ECONNREFUSED 127.0.0.1:5432\n", Options(cwd=str(tmp_path))
    )
    assert kinds(records) == ["infra"]
    assert records[0].hint["transient"] is True
    assert records[0].hint["host"] == "127.0.0.1:5432"


def test_mcp_and_infra_failures_in_one_log_each_keep_their_category(tmp_path):
    filler = "".join(f"step {i}: ok\n" for i in range(120))
    out = (
        sample_output("mcp", "ts-sdk-http-refused")
        + filler
        + sample_output("infra", "curl-connection-refused")
    )
    records = classify_text(out, Options(cwd=str(tmp_path)))
    assert kinds(records) == ["mcp_startup", "infra"]
    assert records[1].rule == "infra.curl"


def test_an_llm_api_rate_limit_is_prompt_delivery_and_transient(tmp_path):
    records = classify_text(sample_output("agent", "openai-rate-limit"), Options(cwd=str(tmp_path)))
    assert kinds(records) == ["prompt_delivery"]
    assert records[0].hint["transient"] is True
    assert records[0].hint["retry_after"] == 5.0


def test_an_sdk_error_ending_a_python_traceback_gives_only_the_sdk_record(tmp_path):
    out = sample_output("agent", "anthropic-prompt-too-long")
    assert "Traceback (most recent call last):" in out
    records = classify_text(out, Options(cwd=str(tmp_path)))
    assert [(r.failure_type.value, r.rule) for r in records] == [
        ("prompt_delivery", "agent.context_too_long")
    ]


# -- the engine's rule for blocks and higher-priority rules ---------------------------------


class _Swallow:
    """A block that consumes every line and reports one hit on its first."""

    max_lines = 1000

    def __init__(self, line_no: int) -> None:
        self.lines = [line_no]

    def feed(self, line: str, line_no: int) -> bool:
        self.lines.append(line_no)
        return True

    def finish(self) -> Iterable[Hit]:
        words = {1: "alpha", 3: "gamma"}  # distinct messages: never merged as one failure
        return [Hit(signal=f"block {words[n]}", log_line=n) for n in self.lines if n in words]


def _rule(id_: str, priority: int, trigger: str, func: object) -> Rule:
    return Rule(
        id=id_,
        category=FailureType.INFRA,
        tool="t",
        pattern=re.compile(re.escape(trigger)),
        triggers=(trigger,),
        func=func,  # type: ignore[arg-type]
        family="test",
        priority=priority,
    )


def test_a_higher_priority_rule_sees_a_line_a_lower_priority_block_consumes():
    low = _rule("test.block", 1, "BEGIN", lambda m, ctx: _Swallow(ctx.line_no))
    high = _rule("test.high", 9, "SDKError", lambda m, ctx: Hit(signal=ctx.line))
    equal = _rule("test.equal", 1, "SDKError", lambda m, ctx: Hit(signal="never"))
    text = "BEGIN\nframe\nSDKError: boom\n"
    records = classify_text(text, Options(rules=[high, low, equal]))
    got = sorted((r.rule, r.log_line) for r in records)
    # line 3 is the high rule's; the block's own hit for line 3 is superseded,
    # its hit for line 1 stays; the equal-priority rule never sees line 3.
    assert got == [("test.block", 1), ("test.high", 3)]


# -- hints the recipes use ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("case", "tokens", "limit"),
    [
        ("anthropic-prompt-too-long", 208000, 200000),
        ("openai-context-length-exceeded", 130000, 128000),
        ("gemini-input-token-count", 1200000, 1048576),
    ],
)
def test_context_errors_carry_tokens_limit_and_a_reduced_budget(case, tokens, limit, tmp_path):
    (rec,) = classify_text(sample_output("agent", case), Options(cwd=str(tmp_path)))
    assert rec.hint["tokens"] == tokens
    assert rec.hint["limit"] == limit
    assert rec.hint["budget"] == int(limit * agent_limits.BUDGET_RATIO) < limit


@pytest.mark.parametrize(
    "text",
    [
        "All checks passed: no token limit exceeded.\n",
        "The context is not too long: 1200 tokens.\n",
    ],
)
def test_denials_of_context_errors_are_not_failures(text, tmp_path):
    assert classify_text(text, Options(cwd=str(tmp_path))) == []


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("refused", True),
        ("reset", True),
        ("dns", True),
        ("timeout", True),
        ("http-5xx", True),
        ("rate-limit", True),
        ("tls", False),
        ("env", False),
        ("permission", False),
        ("disk-full", False),
        ("deploy", False),
    ],
)
def test_infra_kinds_are_transient_only_when_a_retry_can_help(kind, expected):
    assert infra_common.transient(kind) is expected


def test_http_statuses_map_to_retryable_kinds():
    assert infra_common.http_kind(503) == "http-5xx"
    assert infra_common.http_kind(429) == "rate-limit"
    assert not infra_common.transient(infra_common.http_kind(404))


def test_bash_errors_that_look_like_a_missing_variable_are_not_reported_as_one(tmp_path):
    text = "deploy.sh: line 5: kubectl: command not found\n"
    records = classify_text(text, Options(cwd=str(tmp_path)))
    assert all(r.rule != "infra.env_not_set" for r in records)


# -- MCP configuration ------------------------------------------------------------------


def test_key_positions_follow_nesting_arrays_and_escapes():
    text = '{\n  "a": {"b\\"x": [1, {"c": 2}]},\n    "mcpServers": {\n      "notes": {}\n  }\n}\n'
    pos = mcpconfig.key_positions(text)
    assert pos[("a",)] == (2, 3)
    assert pos[("a", 'b"x')] == (2, 9)
    assert pos[("a", 'b"x', "1", "c")] == (2, 22)
    assert pos[("mcpServers", "notes")] == (4, 7)


def test_servers_are_read_from_each_clients_config_file(tmp_path):
    (tmp_path / ".vscode").mkdir()
    (tmp_path / ".vscode" / "mcp.json").write_text(
        json.dumps(
            {"servers": {"search": {"type": "http", "url": "http://127.0.0.1:8765/mcp"}}}, indent=2
        )
    )
    (tmp_path / ".mcp.json").write_text(
        json.dumps(
            {"mcpServers": {"notes": {"command": "python", "args": ["srv/notes.py"]}}}, indent=2
        )
    )
    entries = mcpconfig.declared_servers(tmp_path)
    assert [(e.name, e.file, e.line, e.column) for e in entries] == [
        ("notes", ".mcp.json", 3, 5),
        ("search", ".vscode/mcp.json", 3, 5),
    ]
    assert mcpconfig.find_server(tmp_path, "search") == entries[1]
    assert mcpconfig.pick_server(entries, mentions=["notes.py"]) == entries[0]
    assert mcpconfig.pick_server(entries, mentions=["127.0.0.1:8765"]) == entries[1]
    assert mcpconfig.pick_server(entries) is None  # two servers, nothing said: unknown
    assert mcpconfig.pick_server(entries, name="missing") is None


def test_an_mcp_record_stays_unplaced_when_no_config_declares_its_server(tmp_path):
    (rec,) = classify_text(
        'Connection failed: Connection to MCP server "ghost" timed out after 5000ms\n',
        Options(cwd=str(tmp_path)),
    )
    assert rec.failure_type == FailureType.MCP_STARTUP
    assert rec.source_file is None
    assert rec.hint["server"] == "ghost"


def test_a_host_line_naming_a_healthy_server_is_not_a_failure(tmp_path):
    text = 'MCP server "notes": connected, 3 tools\ndocs: npx -y @example/docs-mcp - ✓ Connected\n'
    assert classify_text(text, Options(cwd=str(tmp_path))) == []


def test_invalid_mcp_config_is_skipped_not_fatal(tmp_path):
    (tmp_path / ".mcp.json").write_text('{"mcpServers": {"notes": ')
    assert mcpconfig.declared_servers(tmp_path) == []


# -- plugin manifests ------------------------------------------------------------------------


def test_offsets_and_json_errors_become_lines_and_columns():
    text = '{\n  "a": 1\n  "b": 2\n}\n'
    assert plugin_placement.offset_to_line_col(text, text.index('"b"')) == (3, 3)
    assert plugin_placement.json_error_at(text) == (3, 3, "Expecting ',' delimiter")
    assert plugin_placement.json_error_at('{"a": 1}') is None


def test_a_manifest_outside_the_working_tree_is_never_read(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "plugin.json").write_text('{\n  "a": 1,\n}\n')
    work = tmp_path / "work"
    work.mkdir()
    (work / "plugin.json").symlink_to(outside / "plugin.json")
    text = f"SyntaxError: {work / 'plugin.json'}: Unexpected token '}}'\n"
    (rec,) = classify_text(text, Options(cwd=str(work)))
    assert rec.failure_type == FailureType.PLUGIN_STARTUP
    assert rec.source_file == "plugin.json"
    assert rec.source_line is None  # the symlink leads out: not read, not placed


def test_a_json_error_in_a_file_that_is_not_a_manifest_is_not_a_plugin_failure(tmp_path):
    text = "SyntaxError: /app/data/users.json: Unexpected token '}'\n"
    records = classify_text(text, Options(cwd=str(tmp_path)))
    assert all(r.failure_type != FailureType.PLUGIN_STARTUP for r in records)


def test_each_family_module_has_its_rules_registered():
    families = {r.family for r in all_rules()}
    assert {"mcp", "plugin", "infra", "agent"} <= families
    assert (
        mcp_common.PRIORITY > plugin_common.PRIORITY > agent_common.PRIORITY > infra_common.PRIORITY
    )


def test_python_permission_and_disk_errors_are_left_to_the_traceback_rule(tmp_path):
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/export.py", line 3, in <module>\n'
        '    open("/var/log/app.log", "w")\n'
        "PermissionError: [Errno 13] Permission denied: '/var/log/app.log'\n"
    )
    records = classify_text(text, Options(cwd=str(tmp_path)))
    assert all(r.rule not in ("infra.permission_denied", "infra.disk_full") for r in records)
    shell = classify_text(
        "cp: cannot create regular file 'x': Permission denied\n", Options(cwd=str(tmp_path))
    )
    assert [r.rule for r in shell] == ["infra.permission_denied"]


@pytest.mark.parametrize(
    ("line", "server"),
    [
        ('MCP server "tickets" failed to start: spawn node ENOENT', "tickets"),
        (
            '[MCP] Server "tickets": Connection failed: MCP error -32000: Connection closed',
            "tickets",
        ),
        ("[MCP] notes: connection refused", "notes"),
    ],
)
def test_host_lines_name_the_server_that_failed(line, server, tmp_path):
    (rec,) = classify_text(line + "\n", Options(cwd=str(tmp_path)))
    assert (rec.failure_type, rec.rule, rec.hint["server"]) == (
        FailureType.MCP_STARTUP,
        "mcp.host",
        server,
    )


def _adversarial_lines(n: int = 8000) -> list[str]:
    h = n // 2
    return [
        "a" * n,
        "A_" * h,
        "x: line 3: " + "A" * n,
        "environment variable " + "A" * n,
        "Cannot find package '" + "eslint-plugin-" * (n // 14),
        "Permission denied " + "a" * n,
        "a" * n + " Permission denied",
        'MCP server "' + "x" * n,
        "[MCP] " + "a " * h,
        "npm error " + "x " * h,
        "│   on " + "a " * h,
        "prompt is too long: " + "1" * n,
        "connect ECONNREFUSED " + "1." * h,
        "- " + "/plugins/a" * (n // 10),
        "- /plugins/" + "a/" * h,
    ]


@pytest.mark.parametrize("family", ["mcp", "plugin", "infra", "agent"])
def test_rule_patterns_stay_linear_on_long_adversarial_lines(family):
    import time

    lines = _adversarial_lines()
    for r in all_rules():
        if r.family != family:
            continue
        for line in lines:
            # CPU time, not wall time: a busy machine slows the clock on the wall, not
            # the steps the regex takes (linear: well under 1 ms; quadratic: seconds)
            start = time.process_time()
            r.pattern.search(line)
            assert time.process_time() - start < 0.25, (r.id, line[:40])


def test_a_missing_module_outside_a_plugins_folder_is_not_a_plugin_failure(tmp_path):
    text = (
        "Error: Cannot find module 'left-pad'\n"
        "Require stack:\n"
        "- /app/src/index.js\n"
        "- /app/plugins/loader.js\n"
    )
    records = classify_text(text, Options(cwd=str(tmp_path)))
    assert all(r.failure_type != FailureType.PLUGIN_STARTUP for r in records)


def test_a_higher_priority_hit_for_an_earlier_line_supersedes_the_blocks_hit_there():
    low = _rule("test.block", 1, "BEGIN", lambda m, ctx: _Swallow(ctx.line_no))
    high = _rule(
        "test.later",
        9,
        "EXPLAINS",
        lambda m, ctx: Hit(signal="explained", log_line=ctx.line_no - 1),
    )
    records = classify_text("BEGIN\nx\nthe cause\nEXPLAINS line 3\n", Options(rules=[high, low]))
    assert sorted((r.rule, r.log_line) for r in records) == [("test.block", 1), ("test.later", 3)]


@pytest.mark.parametrize(
    "text",
    [
        "Tool xcodebuild is not available on this runner\n",
        "Process exited with code 1\n",
        "the child process exited with code 2\n",
    ],
)
def test_generic_wording_outside_mcp_or_compose_output_is_not_claimed(text, tmp_path):
    records = classify_text(text, Options(cwd=str(tmp_path)))
    assert all(r.rule not in ("mcp.tool_not_available", "infra.container_exited") for r in records)
