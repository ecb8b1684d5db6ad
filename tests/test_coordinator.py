"""The second seed's formats: what an ERROR entry or a failed worker's
progress file says decides its category (classifier/rules/coordinator.py)."""

from __future__ import annotations

import pytest

from faultlens.classifier.engine import classify_text
from faultlens.classifier.rules.coordinator import categorise


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        ("3 tests failing in message-tools.test.ts", "test"),
        ("1 test still failing", "test"),
        ("Build failed: error TS2304: Cannot find name 'X'", "compile"),
        ("git merge --squash failed: merge conflict in src/a.ts", "branch_divergence"),
        ("branch is behind origin/main, needs rebase", "branch_divergence"),
        ("secret detected in config/app.env", "trust_gate"),
        ("MCP server github failed: handshake timeout", "mcp_startup"),
        ("plugin not found: lint-helper", "plugin_startup"),
        ("context too long: 210000 tokens > 200000", "prompt_delivery"),
        ("agent failed to respond", "prompt_delivery"),
        ("No space left on device", "infra"),
        ("git unavailable: connection refused", "infra"),
    ],
)
def test_the_error_text_decides_the_category(error, expected):
    ft, confidence = categorise(error)
    assert ft.value == expected
    assert confidence == 0.8


def test_an_error_nothing_recognises_is_low_confidence_infra():
    ft, confidence = categorise("worker stopped")
    assert (ft.value, confidence) == ("infra", 0.4)


def test_a_log_entry_puts_its_task_id_into_task():
    log = (
        "[2026-01-20T10:25:00Z] ERROR worker-2 TASK-007 implementation\n"
        "  Phase: implement\n"
        "  Error: 3 tests failing in message-tools.test.ts\n"
        "  Details: Expected array of 3, received array of 2\n"
        "  Action: Offering retry\n"
        "\n"
        "[2026-01-20T10:25:05Z] INFO user selected: retry\n"
    )
    (r,) = classify_text(log)
    assert (r.failure_type.value, r.task, r.source_file, r.log_line) == (
        "test",
        "TASK-007",
        "message-tools.test.ts",
        1,
    )
    assert r.hint["action"] == "Offering retry"
    assert r.hint["worker"] == "worker-2"


def test_a_json_progress_file_with_a_nested_error_object():
    doc = '{\n  "task": "TASK-011",\n  "status": "failed",\n  "error": {\n    "message": "Merge conflict in src/app.ts"\n  }\n}\n'
    (r,) = classify_text(doc)
    assert (r.failure_type.value, r.task, r.source_file) == (
        "branch_divergence",
        "TASK-011",
        "src/app.ts",
    )


def test_a_completed_worker_is_not_a_failure():
    assert classify_text("task: TASK-1\nstatus: completed\nerror: null\n") == []
