"""Edge cases of the JavaScript/TypeScript rules that the stored samples do
not show on their own: a failure printed twice, colour codes, CRLF line ends,
output arriving in small pieces, look-alike lines from other tools."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from faultlens.classifier.engine import Classifier, Options, classify_bytes
from faultlens.classifier.record import FailureRecord

SAMPLES = Path(__file__).parent / "samples"


def _sample(case: str) -> tuple[bytes, Path]:
    d = SAMPLES / case
    return (d / "output.txt").read_bytes(), d


def _view(records: list[FailureRecord]) -> list[tuple[Any, ...]]:
    return [
        (r.rule, r.failure_type.value, r.source_file, r.source_line, r.source_column, r.hint)
        for r in records
    ]


def _classify(data: bytes, cwd: Path | str) -> list[FailureRecord]:
    return classify_bytes(data, Options(cwd=str(cwd)))


JS_CASES = [
    "js_test/jest-assertions",
    "js_test/vitest-assertions",
    "js_test/mocha-assertions",
    "js_test/node-test-spec",
    "javascript/eslint-stylish-errors",
    "javascript/esbuild-unresolved-and-syntax",
    "javascript/webpack-module-errors",
    "javascript/vite-parse-error",
    "javascript/node-reference-error",
    "javascript/node-cannot-find-module-require",
    "typescript/tsc-no-inputs-ts18003",
]


def test_jest_failure_printed_twice_is_one_record() -> None:
    data, cwd = _sample("js_test/jest-summary-twice-colors")
    text = data.decode()
    assert "Summary of all failing tests" in text
    assert text.count("adds big numbers") >= 2  # really printed twice
    records = _classify(data, cwd)
    ids = [r.hint["test_id"] for r in records]
    assert ids == [
        "math adds big numbers",
        "math users builds a profile",
        "math users reads the first name",
        "top-level check",
    ]


def test_same_jest_report_fed_twice_is_still_one_record_per_test() -> None:
    data, cwd = _sample("js_test/jest-assertions")
    once = _classify(data, cwd)
    twice = _classify(data + data, cwd)
    assert len(once) == 4
    assert _view(twice) == _view(once)


def test_node_test_recap_repeating_a_failure_keeps_the_suite_path() -> None:
    data, cwd = _sample("js_test/node-test-spec")
    assert "✖ failing tests:" in data.decode()
    records = _classify(data, cwd)
    assert [r.hint["test_id"] for r in records] == [
        "math adds big numbers",
        "math users builds a profile",
        "math users reads the first name",
    ]


def test_ansi_coloured_jest_output_gives_the_plain_records() -> None:
    coloured, cwd_c = _sample("js_test/jest-summary-twice-colors")
    plain, cwd_p = _sample("js_test/jest-assertions")
    assert b"\x1b[" in coloured and b"\x1b[" not in plain
    assert _view(_classify(coloured, cwd_c)) == _view(_classify(plain, cwd_p))


@pytest.mark.parametrize("case", JS_CASES)
def test_crlf_line_ends_give_the_same_records(case: str) -> None:
    data, cwd = _sample(case)
    lf = _classify(data, cwd)
    crlf = _classify(data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"), cwd)
    assert lf, f"{case}: the sample must give records for this test to mean anything"
    assert _view(crlf) == _view(lf)


@pytest.mark.parametrize("case", JS_CASES)
def test_output_fed_in_small_pieces_gives_the_same_records(case: str) -> None:
    data, cwd = _sample(case)
    whole = _classify(data, cwd)
    c = Classifier(Options(cwd=str(cwd)))
    for i in range(0, len(data), 7):
        c.feed(data[i : i + 7])
    assert _view(c.close()) == _view(whole)


def test_python_errors_are_not_taken_for_node_crashes() -> None:
    out = (
        b"Traceback (most recent call last):\n"
        b'  File "/srv/app/main.py", line 3, in <module>\n'
        b"    print(undefined_name)\n"
        b"NameError: name 'undefined_name' is not defined\n"
        b'  File "/srv/app/other.py", line 2\n'
        b"    x = (\n"
        b"        ^\n"
        b"SyntaxError: '(' was never closed\n"
    )
    rules = {r.rule for r in _classify(out, ".")}
    assert not {r for r in rules if r.startswith(("node.", "jest.", "mocha.", "vitest."))}


def test_uncaught_type_error_points_at_the_innermost_project_frame(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "cart.js").write_text("x\n" * 10)
    (tmp_path / "index.js").write_text("x\n" * 10)
    root = tmp_path.as_posix()
    out = (
        f"{root}/src/cart.js:4\n"
        "  return order.items.length;\n"
        "               ^\n"
        "\n"
        "TypeError: Cannot read properties of undefined (reading 'length')\n"
        "    at count (/usr/lib/node_modules/lodash/count.js:3:10)\n"
        f"    at total ({root}/src/cart.js:4:16)\n"
        f"    at Object.<anonymous> ({root}/index.js:2:13)\n"
        "    at Module._compile (node:internal/modules/cjs/loader:1521:14)\n"
        "\n"
        "Node.js v20.20.2\n"
        "after the crash\n"
    ).encode()
    [rec] = _classify(out, tmp_path)
    assert (rec.rule, rec.source_file, rec.source_line, rec.source_column) == (
        "node.uncaught",
        "src/cart.js",
        4,
        16,
    )
    assert rec.code == "TypeError"
    # installed packages and Node internals are not "related" places to look
    assert [(loc.file, loc.line) for loc in rec.related] == [("index.js", 2)]


def test_logged_error_without_throw_site_is_not_a_crash() -> None:
    out = b"Error: retrying in 2s\n    at retry (/srv/app/net.js:3:9)\n    at main (/srv/app/index.js:1:1)\n"
    assert not [r for r in _classify(out, ".") if r.rule.startswith("node.")]


def test_cannot_find_bare_module_names_the_package_to_install() -> None:
    out = (
        b"node:internal/modules/cjs/loader:1210\n"
        b"  throw err;\n"
        b"  ^\n"
        b"\n"
        b"Error: Cannot find module '@scope/util/lib/x'\n"
        b"Require stack:\n"
        b"- /srv/app/server.js\n"
        b"    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)\n"
        b"    at Object.<anonymous> (/srv/app/server.js:1:13)\n"
        b"    at node:internal/main/run_main_module:28:49 {\n"
        b"  code: 'MODULE_NOT_FOUND',\n"
        b"  requireStack: [ '/srv/app/server.js' ]\n"
        b"}\n"
    )
    [rec] = _classify(out, ".")
    assert rec.rule == "node.module_not_found"
    assert rec.code == "MODULE_NOT_FOUND"
    assert rec.hint == {"module": "@scope/util/lib/x", "package": "@scope/util"}
    assert (rec.source_file, rec.source_line) == ("/srv/app/server.js", 1)


def test_eslint_security_plugin_warning_is_a_trust_gate_and_windows_headers_work() -> None:
    out = (
        b"\r\nC:\\work\\app\\src\\db.js\r\n"
        b"  3:1  warning  Found non-literal argument in require  security/detect-non-literal-require\r\n"
        b"  7:5  warning  Unexpected console statement          no-console\r\n"
        b"\r\n"
        b"\xe2\x9c\x96 2 problems (0 errors, 2 warnings)\r\n"
    )
    [rec] = _classify(out, ".")
    assert rec.failure_type.value == "trust_gate"
    assert rec.code == "security/detect-non-literal-require"
    assert (rec.source_file, rec.source_line) == ("C:/work/app/src/db.js", 3)


def test_mocha_zero_passing_with_failures_reports_the_failures_only() -> None:
    out = (
        b"  0 passing (4ms)\n"
        b"  1 failing\n"
        b"\n"
        b"  1) adds:\n"
        b"     AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n"
        b"\n"
        b"1 !== 2\n"
        b"\n"
        b"      at Context.<anonymous> (test/a.test.js:4:12)\n"
        b"\n"
    )
    records = _classify(out, ".")
    assert [(r.rule, r.hint.get("test_id"), r.source_file, r.source_line) for r in records] == [
        ("mocha.failure", "adds", "test/a.test.js", 4)
    ]


@pytest.mark.parametrize(
    "line",
    [
        b"Tests:       4 failed, 1 passed, 5 total\n",
        b"      Tests  4 failed | 1 passed (5)\n",
        b"Test Suites: 2 failed, 2 total\n",
        b"\xe2\x84\xb9 fail 3\n",
        b"webpack 5.113.0 compiled with 2 errors in 1340 ms\n",
        b"Found 0 errors. Watching for file changes.\n",
        b"\xe2\x9c\x96 6 problems (5 errors, 1 warning)\n",
    ],
)
def test_summary_lines_alone_are_not_records(line: bytes) -> None:
    assert not [r for r in _classify(line, ".") if r.failure_type.value in ("test", "compile")]


def test_tsc_error_without_location_in_pretty_colour() -> None:
    out = (
        b"\x1b[91merror\x1b[0m\x1b[90m TS5058: \x1b[0mThe specified path does not exist: 'packages/api'.\n"
        b"\n\nFound 1 error.\n"
    )
    [rec] = _classify(out, ".")
    assert (rec.rule, rec.code, rec.source_file, rec.hint) == (
        "tsc.global",
        "TS5058",
        None,
        {"path": "packages/api"},
    )


class _FakeContext:
    """A LineContext over a list of lines (for driving one rule directly)."""

    def __init__(self, lines: list[str], index: int) -> None:
        self._lines = lines
        self.line = lines[index]
        self.line_no = index + 1

    def before(self, n: int) -> list[str]:
        return self._lines[max(0, self.line_no - 1 - n) : self.line_no - 1]

    def exists(self, path: str) -> bool:
        return False

    def in_project(self, path: str) -> bool:
        return False

    def resolve(self, path: str) -> str:
        return path


def _run_rule_alone(rule_id: str, text: str) -> list[Any]:
    """Every hit one rule's blocks yield over the text, without the engine's
    record store or post-processing (so a rule's own dedupe key is tested)."""
    from faultlens.classifier.rules.registry import get_rule
    from faultlens.classifier.text import decode

    rule = get_rule(rule_id)
    lines = decode(text.encode()).split("\n")
    hits: list[Any] = []
    block: Any = None
    for i, line in enumerate(lines):
        if block is not None:
            if block.feed(line, i + 1):
                continue
            hits.extend(block.finish())
            block = None
        m = rule.pattern.search(line)
        if m and any(t in line for t in rule.triggers):
            result = rule.func(m, _FakeContext(lines, i))
            if result is not None and hasattr(result, "feed"):
                block = result
            elif result is not None:
                hits.append(result)
    if block is not None:
        hits.extend(block.finish())
    return hits


def test_jest_repeated_failure_hits_share_one_dedupe_key() -> None:
    data, _ = _sample("js_test/jest-summary-twice-colors")
    hits = _run_rule_alone("jest.failure", data.decode())
    assert len(hits) == 8  # each failure seen twice by the rule
    assert len({h.key for h in hits}) == 4


def test_node_test_recap_hits_share_the_dedupe_key_of_the_first_report() -> None:
    data, _ = _sample("js_test/node-test-spec")
    hits = _run_rule_alone("node_test.spec", data.decode())
    assert len(hits) == 6  # three failures, then the "failing tests" recap
    assert len({h.key for h in hits}) == 3
    assert [h.hint["test_path"] for h in hits[3:]] == [[h.hint["test_name"]] for h in hits[3:]]
