""" "Could this output hold a failure?", answered without loading the classifier.

A hook runs after every shell call an agent makes; most succeed and print
nothing a rule would look at.  Loading the classifier (pydantic models, ~1,000
compiled patterns) costs far more than the call itself, so for a call that
succeeded the hook first scans its output for the rules' trigger words — the
literal strings without which no rule even tries a line.  No trigger, no
failure: the classifier would find nothing either.

The trigger list is kept in a cache file (under $XDG_CACHE_HOME/faultlens)
keyed by where the rule modules are installed and the size and mtime of each,
so an upgrade or an edited rule rebuilds it.  A project with its own rules
(`.faultlens.toml`, `[tool.faultlens]` in pyproject.toml) always gets the full
classifier, as does output that looks structured (JUnit XML, SARIF, JSON
messages): their parsers do not work by triggers.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from faultlens.classifier import cachefile

STRUCTURED_MARKS = (
    b"<testsuite",
    b"<?xml",
    b'"$schema"',
    b'"reason":"compiler-message"',
    b"TAP version",
    b"::error",
)


def _key() -> str:
    """Changes when the installed rules change (their files' sizes and times;
    the engine's own module too, for how triggers are read)."""
    rules_dir = Path(__file__).resolve().parent.parent / "classifier" / "rules"
    h = hashlib.sha256(str(rules_dir).encode())
    for entry in sorted(os.scandir(rules_dir), key=lambda e: e.name):
        if entry.name.endswith(".py"):
            st = entry.stat()
            h.update(f"{entry.name}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()[:16]


def _build() -> list[bytes]:
    from faultlens.classifier.rules.registry import all_rules

    return sorted({t.encode("utf-8") for r in all_rules() if r.enabled for t in r.triggers})


def triggers() -> list[bytes]:
    """Every built-in rule's triggers (from the cache, else built and cached)."""
    name = f"triggers-{_key()}.json"
    blob = cachefile.read(name)
    if blob is not None:
        try:
            data = json.loads(blob)
        except ValueError:
            data = None
        if isinstance(data, list) and all(isinstance(t, str) for t in data):
            return [t.encode("utf-8", "surrogateescape") for t in data]
    found = _build()
    # the cache is an optimisation: failing to write it changes nothing
    cachefile.write(
        name, json.dumps([t.decode("utf-8", "surrogateescape") for t in found]).encode()
    )
    return found


def _has_project_rules(root: Path) -> bool:
    if (root / ".faultlens.toml").is_file():
        return True
    try:
        with open(root / "pyproject.toml", "rb") as fh:
            return b"[tool.faultlens" in fh.read(1024 * 1024)
    except OSError:
        return False


def may_hold_failure(output: str, root: Path) -> bool:
    """False only when no rule could find a failure in `output`."""
    data = output.encode("utf-8", "replace")
    if not data.strip():
        return False
    if _has_project_rules(root) or any(m in data for m in STRUCTURED_MARKS):
        return True
    from ahocorasick_rs import BytesAhoCorasick

    automaton = BytesAhoCorasick(triggers() or [b"\x00never\x00"])
    return bool(automaton.find_matches_as_indexes(data, overlapping=False))
