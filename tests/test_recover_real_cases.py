"""Cases found by breaking real projects the way developers and agents do, kept
as small projects run with the real tools (`faultlens run --recover`):

- cachetools (pytest, src layout): `import functools` removed from a module
  whose decorator runs at import time (a collection error in every test module
  that imports it); `from . import keys` removed from `func.py`, whose
  package already has a one-line `from . import A, B` (35 tests failing);
  a wrong return value in `keys.typedkey` (5 real failures) beside a test
  that fails once and then passes (flaky).
- pflag (go test): `FlagSet.Lookup` made to return nil: 12 failing tests,
  re-run in ONE `go test -v -count=1 -run '^(?:TestA|TestB|...)$' .` (the
  module's import path mapped onto its directory).
- itoa (cargo test --offline): a wrong expected value in a test: re-run as
  `cargo test --offline -- --exact test_u64_half`, escalated with the
  `left`/`right` values as actual/expected.  (Its optional `no-panic`
  dependency cannot be resolved offline without a lock: cargo's "no matching
  package named" error is filed as a test failure with no test — a classifier
  matter, noted in the report.)
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from .helpers import run_recover_in_process

pytestmark = pytest.mark.real_tool
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / ".git").mkdir(exist_ok=True)
    return root


def test_a_missing_standard_library_module_is_imported(tmp_path):
    proj = _write(
        tmp_path,
        {
            "pkg/__init__.py": "from .deco import cached\n",
            "pkg/deco.py": '"""Decorators."""\n\n__all__ = ("cached",)\n\n\n'
            "def cached(func):\n    def wrapper(*a):\n        return func(*a)\n\n"
            "    return functools.update_wrapper(wrapper, func)\n",
            "tests/test_deco.py": "from pkg import cached\n\n\n@cached\ndef twice(x):\n"
            "    return 2 * x\n\n\ndef test_twice():\n    assert twice(2) == 4\n",
        },
    )
    report, _ = run_recover_in_process(PYTEST, proj, "T")
    assert report.exit_code == 0, [o.reason for o in report.outcomes]
    (outcome,) = report.outcomes
    assert outcome.record.failure_type.value == "compile"
    assert outcome.tried == "Import functools from the standard library"
    assert (proj / "pkg" / "deco.py").read_text().count("import functools\n") == 1


def test_a_missing_sibling_module_joins_the_packages_own_import_line(tmp_path):
    proj = _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/core.py": "class Cache(dict):\n    pass\n",
            "pkg/keys.py": "def hashkey(*args):\n    return args\n",
            "pkg/func.py": "from .core import Cache\nfrom . import core\n\n\n"
            "def lookup(*args):\n    return keys.hashkey(*args)\n",
            "tests/test_func.py": "from pkg.func import lookup\n\n\n"
            + "".join(f"def test_{i}():\n    assert lookup({i}) == ({i},)\n\n\n" for i in range(5)),
        },
    )
    report, _ = run_recover_in_process(PYTEST, proj, "T")
    assert report.exit_code == 0, [o.reason for o in report.outcomes]
    (outcome,) = report.outcomes
    assert outcome.result == "recovered"
    assert outcome.tried == "Import keys (from . import keys)"
    text = (proj / "pkg" / "func.py").read_text()
    assert text.startswith("from .core import Cache\nfrom . import core, keys\n")


FLAKY = """\
from pathlib import Path


def test_once():
    marker = Path(__file__).with_name(".ran-once")
    if not marker.exists():
        marker.write_text("x")
        assert False, "first run fails"
"""
REAL = "from pkg.keys import typedkey\n\n\ndef test_typed():\n    assert typedkey(1, 2) == (1, 2, int, int)\n"


def test_a_flaky_test_and_a_real_failure_in_one_run(tmp_path):
    proj = _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/keys.py": "def typedkey(*args):\n    return args + tuple(type(v) for v in args[1:])\n",
            "tests/test_flaky.py": FLAKY,
            "tests/test_keys.py": REAL,
        },
    )
    report, _ = run_recover_in_process(PYTEST, proj, "T")
    assert report.exit_code == 1  # the last run of the original command still fails
    by_test = {o.record.hint.get("test_id"): o for o in report.outcomes}
    flaky = by_test["tests/test_flaky.py::test_once"]
    real = by_test["tests/test_keys.py::test_typed"]
    assert flaky.result == "recovered" and flaky.reason.startswith("flaky test:")
    assert real.result == "escalated" and real.reason.startswith("a real failure:")
    assert real.tried == flaky.tried == "re-ran the 2 failing tests once (pytest)"
    alone = [d for d in real.details if d.startswith("Run it alone: ")]
    assert alone and alone[0].endswith(" -rA tests/test_keys.py::test_typed")
    assert real.box is not None and flaky.box is None
    flat = " ".join(line.strip("║ ") for line in real.box.splitlines())
    assert "Progress so far:" in flat and "tests/test_flaky.py::test_once" in flat
    assert (
        "Why it failed: a real failure" in flat
        and "pytest -q -p" not in flat.split("Why it failed")[1].split("Run it alone")[0]
    )


def test_a_cause_of_many_failing_tests_gets_a_box_that_fits_a_screen(tmp_path):
    """29 parametrised cases failing on one cause: the box says how to run one
    of them alone, not a command naming all 29 (which made it 62 lines)."""
    proj = _write(
        tmp_path,
        {
            "tests/test_many.py": "import pytest\n\n\ndef total(xs):\n    return sum(xs) + 1\n\n\n"
            "@pytest.mark.parametrize('n', range(29))\ndef test_total(n):\n"
            "    assert total([n, 1]) == n + 1\n",
        },
    )
    report, _ = run_recover_in_process(PYTEST, proj, "T")
    (o,) = report.outcomes
    assert o.result == "escalated" and o.reason.startswith("a real failure: 29 of 29 tests")
    alone = [d for d in o.details if d.startswith("Run one alone: ")]
    assert alone and alone[0].endswith(" -rA 'tests/test_many.py::test_total[0]'")
    assert o.box is not None and len(o.box.splitlines()) <= 40


GO_MOD = "module example.com/flagx\n\ngo 1.19\n"


def test_go_failing_subtests_are_rerun_once_level_by_level_in_their_package(tmp_path):
    """As in pflag: a lookup made to return nil; subtests whose names hold
    parentheses and a slash are re-run in one command, `-v`, in the package's
    directory (mapped from its import path)."""
    if shutil.which("go") is None:
        pytest.skip("go not installed")
    proj = _write(
        tmp_path,
        {
            "go.mod": GO_MOD,
            "flag.go": "package flagx\n\nfunc Lookup(name string) *string {\n\treturn nil\n}\n",
            "flag_test.go": 'package flagx\n\nimport "testing"\n\nfunc TestLookup(t *testing.T) {\n'
            '\tfor _, name := range []string{"a (x)", "b/c"} {\n'
            "\t\tt.Run(name, func(t *testing.T) {\n"
            '\t\t\tif Lookup(name) == nil {\n\t\t\t\tt.Errorf("Lookup(%q) = nil, want a flag", name)\n'
            "\t\t\t}\n\t\t})\n\t}\n}\n",
        },
    )
    report, _ = run_recover_in_process(["go", "test", "./..."], proj, "T")
    assert report.exit_code == 1
    assert report.outcomes and all(o.result == "escalated" for o in report.outcomes)
    o = report.outcomes[0]
    assert o.reason.startswith("a real failure:"), o.reason
    assert "re-ran" in o.tried and "(go)" in o.tried
    alone = [d for d in o.details if d.startswith(("Run it alone: ", "Run one alone: "))]
    assert alone and " go test -v -count=1 -run " in alone[0]
    assert alone[0].endswith(" .")


def test_cargo_keeps_offline_and_reruns_the_failing_test_exactly(tmp_path, monkeypatch):
    """As in itoa: a value formatted wrong; `cargo test --offline` re-run as
    `cargo test --offline -- --exact NAME`, expected and actual from left/right."""
    if shutil.which("cargo") is None:
        pytest.skip("cargo not installed")
    proj = _write(
        tmp_path,
        {
            "Cargo.toml": '[package]\nname = "digits"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\n',
            "src/lib.rs": "pub fn fmt(n: u32) -> String {\n    let s = n.to_string();\n"
            "    s[..s.len() - 1].to_string()\n}\n\n#[cfg(test)]\nmod tests {\n"
            '    #[test]\n    fn formats_ten() {\n        assert_eq!(super::fmt(10), "10");\n    }\n\n'
            "    #[test]\n    fn formats_nothing() {\n        assert!(true);\n    }\n}\n",
        },
    )
    monkeypatch.setenv("CARGO_TARGET_DIR", str(tmp_path / "target"))
    report, _ = run_recover_in_process(["cargo", "test", "--offline"], proj, "T")
    assert report.exit_code == 101
    (o,) = [o for o in report.outcomes if o.record.failure_type.value == "test"]
    assert o.result == "escalated" and o.reason.startswith("a real failure:"), o.reason
    alone = [d for d in o.details if d.startswith("Run it alone: ")]
    # only the library's test binary (cargo: "to rerun pass `--lib`"), --offline kept
    assert alone == ["Run it alone: cargo test --offline --lib -- --exact tests::formats_ten"]
    assert 'Expected: "10"' in o.details and 'Actual: "1"' in o.details
