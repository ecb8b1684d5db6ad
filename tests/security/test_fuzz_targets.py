"""The atheris fuzz targets (fuzz/targets.py) run without atheris: every
sample seeds a few hundred mutated inputs per target, so CI exercises the
same invariants the coverage-guided run checks (no exception, records valid
against the schema, log lines inside the input, no rule raising).

Also the inputs the fuzzer found that once broke the classifier."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
import targets  # fuzz/targets.py (conftest puts fuzz/ on sys.path)

from .conftest import ROOT, SAMPLES

ITERATIONS = 300
INTERESTING = [
    b"\x00",
    b"\xff\xfe",
    b"\r\n",
    b"\r",
    b"\x1b[31m",
    b"\x1b]8;;file:///x\x07",
    b"<",
    b"&",
    b'"',
    b"{",
    b"]",
    b"\n",
    b":0:0:",
    b", line 0, in ",
    b"\xc3",
    b"\xe2\x80\xae",
    b"..",
    b"/" * 300,
]


def _seeds(target: str) -> list[bytes]:
    paths = sorted({p for g in targets.SEEDS[target] for p in ROOT.glob(g) if p.is_file()})
    return [p.read_bytes()[:65536] for p in paths]


def _mutate(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    """One to four libFuzzer-like mutations (flip, insert, erase, splice,
    duplicate, truncate), chosen by a seeded generator."""
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(7)
        at = rng.randint(0, len(b))
        if op == 0 and b:
            b[min(at, len(b) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1:
            b[at:at] = rng.choice(INTERESTING)
        elif op == 2:
            b[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        elif op == 3:
            del b[at : at + rng.randint(1, 64)]
        elif op == 4:
            other = rng.choice(pool)
            s = rng.randint(0, len(other))
            b[at:at] = other[s : s + rng.randint(1, 512)]
        elif op == 5:
            b[at:at] = b[at : at + rng.randint(1, 256)]
        else:
            b = b[:at]
    return bytes(b)


@pytest.mark.parametrize("target", sorted(targets.TARGETS))
def test_fuzz_target_survives_seeded_mutations_of_the_samples(target: str) -> None:
    fn: Callable[[bytes], None] = targets.TARGETS[target]
    pool = _seeds(target)
    assert pool, f"no seeds for {target}"
    for seed in pool:
        fn(seed)
    rng = random.Random(f"faultlens-{target}")
    for i in range(ITERATIONS):
        data = _mutate(rng, rng.choice(pool), pool)
        try:
            fn(data)
        except Exception as exc:  # name the input so it can be replayed
            raise AssertionError(f"{target} iteration {i} failed on {data[:400]!r}") from exc


# -- inputs the fuzzer found (each broke the classifier before its fix) -------------


def test_truncated_junit_report_keeps_the_failures_read_so_far() -> None:
    import io

    from faultlens.classifier.engine import Options
    from faultlens.classifier.structured import classify_stream

    xml = (SAMPLES / "structured" / "pytest-junit" / "output.xml").read_bytes()
    whole = classify_stream(io.BytesIO(xml), Options(cwd="/nonexistent"))
    assert whole
    cut = xml[: xml.rindex(b"</testcase>") + len(b"</testcase>")]
    part = classify_stream(io.BytesIO(cut), Options(cwd="/nonexistent"))
    assert [r.signal for r in part] == [r.signal for r in whole][: len(part)]
    assert part


def test_junit_with_an_unknown_xml_encoding_is_not_an_error() -> None:
    targets.junit(b'<?xml version="1.0" encoding="utf-4"?><testsuites></testsuites>')


def test_junit_with_entities_is_refused_without_expansion() -> None:
    import io

    from faultlens.classifier.engine import Options
    from faultlens.classifier.structured import classify_stream

    bomb = (
        b'<?xml version="1.0"?>\n<!DOCTYPE t [<!ENTITY a "aaaaaaaaaa">'
        b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
        b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">'
        b'<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
        b'<testsuites><testsuite><testcase name="t"><failure message="&c;&x;">'
        b"boom</failure></testcase></testsuite></testsuites>"
    )
    records = classify_stream(io.BytesIO(bomb), Options(cwd="/nonexistent"))
    text = " ".join(r.signal + r.message for r in records)
    assert "aaaaaaaaaa" not in text and "root:" not in text


def test_traceback_frame_at_line_0_gives_no_location_instead_of_an_invalid_record() -> None:
    data = (
        b"Traceback (most recent call last):\n"
        b'  File "/x/main.py", line 0, in <module>\n'
        b'  File "/x/settings.py", line 0\n'
        b'    "timeout": 10\n'
        b"               ^^\n"
        b"SyntaxError: invalid syntax. Perhaps you forgot a comma?\n"
    )
    targets.classify_text(data)


def test_a_path_too_long_for_the_file_system_does_not_make_a_rule_fail() -> None:
    long_part = "d" * 300
    data = (
        "Traceback (most recent call last):\n"
        f'  File "/tmp/{long_part}/{long_part}/x.py", line 3, in <module>\n'
        "    import nope\n"
        "ModuleNotFoundError: No module named 'nope'\n"
    ).encode()
    targets.classify_text(data)


def test_sarif_with_a_malformed_uri_or_fields_of_the_wrong_shape_keeps_the_good_results() -> None:
    import io

    from faultlens.classifier.engine import Options
    from faultlens.classifier.structured import classify_stream

    good = {
        "ruleId": "E1",
        "level": "error",
        "message": {"text": "good one"},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.py"}}}],
    }
    bad_uri = {
        **good,
        "message": {"text": "bad uri"},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": "file://[x/a.py"}}}],
    }
    bad_fixes = {**good, "message": {"text": "bad fixes"}, "fixes": {"not": "a list"}}
    doc = {
        "version": "2.1.0",
        "runs": [
            {"tool": "not an object", "results": [good]},
            {"tool": {"driver": {"name": "t"}}, "results": [bad_uri, bad_fixes, "x", good]},
        ],
    }
    import json

    records = classify_stream(io.BytesIO(json.dumps(doc).encode()), Options(cwd="/nonexistent"))
    assert [r.message for r in records] == ["good one"]
    targets.sarif(b'{"version": "2.1.0", "runs": 5}')


def test_a_pluggy_message_cut_short_is_not_a_rule_error() -> None:
    targets.classify_text(
        b"INTERNALERROR> pluggy._manager.PluginValidationError: unknown hook "
        b"'pytest_collection_finish_report' in plugin <module 'conf^^^^^^\n"
    )


REGRESSIONS = sorted((Path(__file__).parent / "fuzz_regressions").iterdir())


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.name for p in REGRESSIONS])
def test_every_input_the_fuzzer_found_to_crash_now_passes(path: Path) -> None:
    """Each file is an input atheris reported as a crash (named after its target)."""
    target = path.name.split("-crash-")[0]
    targets.TARGETS[target](path.read_bytes())


@pytest.mark.parametrize("target", ["early_init", "config"])
def test_atheris_runs_the_new_targets_briefly_when_it_is_installed(target: str, tmp_path) -> None:
    """A short coverage-guided smoke run (only where atheris is installed)."""
    pytest.importorskip("atheris")
    import subprocess
    import sys

    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "fuzz" / "fuzz.py"),
            target,
            str(tmp_path / "corpus"),
            *("-runs=300", "-max_len=4096", f"-artifact_prefix={tmp_path}/"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
