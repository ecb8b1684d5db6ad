"""Structured inputs: detected from content, parsed safely, preferred over text."""

from __future__ import annotations

import io
import json
from pathlib import Path

from faultlens.classifier import Options, classify_text
from faultlens.classifier.engine import Classifier
from faultlens.classifier.structured import classify_stream, feed_stream

SAMPLES = Path(__file__).parent / "samples"


def classify(data: bytes, cwd: str = ".") -> list:
    return classify_stream(io.BytesIO(data), Options(cwd=cwd))


def test_junit_entity_expansion_is_refused_not_expanded():
    bomb = (
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
        b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>'
        b'<testsuite><testcase name="t"><failure message="&lol2;"/></testcase></testsuite>'
    )
    try:
        records = classify(bomb)
    except Exception as exc:  # defusedxml refuses entity declarations
        assert type(exc).__name__ in ("EntitiesForbidden", "DTDForbidden")
    else:
        assert all("lollol" not in r.message for r in records)


def test_junit_external_entity_is_never_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    xxe = (
        f'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file://{secret}">]>'
        '<testsuite><testcase name="t"><failure message="&e;"/></testcase></testsuite>'
    ).encode()
    try:
        records = classify(xxe)
    except Exception as exc:
        assert type(exc).__name__ in (
            "EntitiesForbidden",
            "DTDForbidden",
            "ExternalReferenceForbidden",
        )
    else:
        assert not any("TOPSECRET" in json.dumps(r.to_json()) for r in records)


def test_surefire_report_maps_the_class_to_its_test_file(tmp_path):
    src = tmp_path / "src/test/java/com/acme"
    src.mkdir(parents=True)
    (src / "AppTest.java").write_text("class AppTest {}\n")
    xml = (
        b'<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="com.acme.AppTest" tests="1" failures="1">'
        b'<testcase name="testAdd" classname="com.acme.AppTest" time="0.01">'
        b'<failure message="expected:&lt;3&gt; but was:&lt;4&gt;" type="org.opentest4j.AssertionFailedError">'
        b"org.opentest4j.AssertionFailedError: expected: &lt;3&gt; but was: &lt;4&gt;\n"
        b"\tat com.acme.AppTest.testAdd(AppTest.java:12)\n</failure></testcase></testsuite>"
    )
    (rec,) = classify(xml, str(tmp_path))
    assert rec.failure_type == "test"
    assert rec.source_file == "src/test/java/com/acme/AppTest.java"
    assert rec.hint["expected"] == "3" and rec.hint["actual"] == "4"


def test_sarif_from_a_security_scanner_is_a_trust_gate_whatever_its_level():
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "semgrep", "rules": []}},
                "results": [
                    {
                        "ruleId": "python.lang.security.audit.eval-detected",
                        "level": "warning",
                        "message": {"text": "Detected the use of eval()."},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {"uri": "app.py"},
                                    "region": {"startLine": 4, "startColumn": 1},
                                }
                            }
                        ],
                    }
                ],
            }
        ],
    }
    (rec,) = classify(json.dumps(doc).encode())
    assert (rec.failure_type, rec.source_file, rec.source_line) == ("trust_gate", "app.py", 4)


def test_sarif_warnings_of_a_linter_are_not_failures():
    doc = {
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "eslint"}},
                "results": [
                    {"ruleId": "no-unused-vars", "level": "warning", "message": {"text": "x"}}
                ],
            }
        ],
    }
    assert classify(json.dumps(doc).encode()) == []


def test_tap_todo_and_skip_points_are_not_failures():
    out = "TAP version 13\nnot ok 1 - later # TODO not written\nnot ok 2 - flaky # SKIP\nok 3 - fine\n1..3\n"
    assert classify_text(out) == []


def test_cargo_json_warnings_and_notes_are_not_failures():
    warning = {
        "reason": "compiler-message",
        "message": {
            "level": "warning",
            "message": "unused variable: `x`",
            "spans": [],
            "children": [],
        },
    }
    out = (
        json.dumps(warning, separators=(",", ":"))
        + '\n{"reason":"build-finished","success":true}\n'
    )
    assert classify_text(out) == []


def test_a_text_log_starting_with_a_brace_is_still_read_as_text():
    out = b"{ build started }\nsrc/a.ts(1,1): error TS2304: Cannot find name 'X'.\n"
    (rec,) = classify(out)
    assert rec.rule == "tsc.plain"


def test_tap_suite_failing_only_because_of_its_subtests_is_not_a_second_record():
    out = (
        "TAP version 13\n"
        "# Subtest: slugify\n"
        "    not ok 1 - joins words\n"
        "      ---\n"
        "      location: '/x/test/a.test.js:4:3'\n"
        "      failureType: 'testCodeFailure'\n"
        "      ...\n"
        "    1..1\n"
        "not ok 1 - slugify\n"
        "  ---\n"
        "  location: '/x/test/a.test.js:3:1'\n"
        "  failureType: 'subtestsFailed'\n"
        "  ...\n"
        "1..1\n"
    )
    (rec,) = classify_text(out)
    # the test's full name (its suite's too, as node:test's spec reporter names it)
    assert (rec.hint["test_id"], rec.hint["test_name"], rec.hint["test_path"]) == (
        "slugify joins words",
        "joins words",
        ["slugify", "joins words"],
    )


# -- linters' checkstyle XML and JSON reports (structured/lint_reports.py) ----------------


def _lint_sample(case: str) -> Path:
    found = sorted((SAMPLES / case).glob("output.*"))
    assert found, case
    return found[0]


def test_a_truncated_lint_json_report_is_read_as_text_without_failing():
    data = _lint_sample("js_lint/eslint-json").read_bytes()
    records = classify(data[: len(data) // 2])
    assert all(r.rule != "lint_report.eslint" for r in records)


def test_a_truncated_checkstyle_report_keeps_the_findings_read_before_the_cut():
    data = _lint_sample("shellcheck/checkstyle").read_bytes()
    cut = data.index(b"SC2068")
    c = Classifier(Options())
    feed_stream(io.BytesIO(data[:cut]), c)
    records = c.close()
    assert [r.code for r in records] == ["SC2086", "SC2164", "SC2086"]


def test_text_after_a_json_report_is_classified_too():
    path = _lint_sample("css/stylelint-json-max-warnings")
    c = Classifier(Options(cwd=str(path.parent)))
    with open(path, "rb") as fh:
        feed_stream(fh, c)
    [record] = c.close()
    assert record.rule == "lint_report.stylelint"
    assert record.hint["warnings_fail"].startswith("the output says so: Max warnings exceeded")
