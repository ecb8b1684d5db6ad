"""Module-level patterns compiled on first use (classifier/lazyre.py): they
behave as the compiled pattern, and importing the rules compiles none."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from faultlens.classifier.lazyre import LazyRegex, lazy_compile


def test_a_lazy_pattern_answers_as_the_compiled_pattern_does():
    source = r"^(?P<file>[\w/]+\.py):(?P<line>\d+)"
    lazy, plain = lazy_compile(source, re.MULTILINE), re.compile(source, re.MULTILINE)
    text = "a.py:1\nx\nsrc/b.py:22 error\n"
    assert [m.groupdict() for m in lazy.finditer(text)] == [
        m.groupdict() for m in plain.finditer(text)
    ]
    assert lazy.sub("<\\g<line>>", text) == plain.sub("<\\g<line>>", text)
    assert lazy.search("no") is None and lazy.flags == plain.flags
    assert lazy.groupindex == plain.groupindex and lazy.groups == 2


def test_it_compiles_on_first_use_and_then_calls_the_compiled_methods_directly():
    lazy = lazy_compile(r"error TS\d+")
    assert isinstance(lazy, LazyRegex) and "_compiled" not in lazy.__dict__
    assert lazy.pattern == r"error TS\d+"  # the text alone compiles nothing
    assert "_compiled" not in lazy.__dict__
    assert lazy.search("x.ts(1,2): error TS2304")
    compiled = lazy.__dict__["_compiled"]
    assert lazy.match == compiled.match  # an instance attribute now: no __getattr__
    assert lazy.compiled is compiled


def test_what_a_pattern_does_not_have_is_an_attribute_error():
    with pytest.raises(AttributeError):
        _ = lazy_compile("x").no_such_method  # type: ignore[attr-defined]


def _run(probe: str) -> str:
    """What `probe` prints in a fresh interpreter (nothing imported or used yet)."""
    return subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout


def test_importing_every_rule_compiles_none_of_their_module_patterns():
    """A short output (a hook call, one compile error) pays only for the
    patterns its lines reach; a fresh interpreter, so nothing is used yet."""
    probe = (
        "import re, sys\n"
        "from faultlens.classifier.lazyre import LazyRegex\n"
        "from faultlens.classifier.rules.registry import load_builtin\n"
        "load_builtin()\n"
        "mods = [m for n, m in sys.modules.items() if n.startswith('faultlens.classifier.rules')]\n"
        "values = [(m.__name__, k, v) for m in mods for k, v in vars(m).items()]\n"
        "print(sum(isinstance(v, LazyRegex) for _, _, v in values))\n"
        "for n, k, v in values:\n"
        "    if isinstance(v, re.Pattern) or (isinstance(v, LazyRegex) and '_compiled' in vars(v)):\n"
        "        print(n, k)\n"
    )
    out = _run(probe).split("\n")
    assert int(out[0]) > 300  # the rule modules' patterns are lazy ...
    assert [line for line in out[1:] if line] == []  # ... and none compiled at import


def test_starting_a_classification_compiles_no_pattern_of_ours():
    """Every module the classify command imports keeps its patterns lazy,
    those in tables (tuples, lists, dicts of patterns) too: ~130 of them
    compiled at import cost every process ~25 ms, a hook call's included."""
    probe = (
        "import re, sys\n"
        "compiled = []\n"
        "real = re._compile\n"
        "def spy(pattern, flags):\n"
        "    caller = sys._getframe(2).f_globals.get('__name__', '')\n"
        "    if caller.startswith('faultlens'):\n"
        "        compiled.append((caller, str(pattern)[:60]))\n"
        "    return real(pattern, flags)\n"
        "re._compile = spy\n"
        "from faultlens.cli.main import build_parser\n"
        "from faultlens.classifier.engine import Classifier, Options\n"
        "from faultlens.classifier import postprocess\n"
        "build_parser()\n"
        "Classifier(Options(cwd='.'))\n"
        "for c in compiled:\n"
        "    print(*c)\n"
    )
    assert _run(probe) == ""
