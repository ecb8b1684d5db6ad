"""Output formats of `faultlens classify`, one small module per family:

* text.py: the text table, JSON, JSON lines;
* sarif.py: SARIF 2.1.0 (with `fixes`);
* github.py: GitHub Actions workflow commands (within the per-step limits);
* quickfix.py: what Vim's and Neovim's `:cfile` read;
* reviewdog.py: reviewdog's rdjson / rdjsonl (with `suggestions`);
* codeclimate.py: GitLab Code Quality;
* xmlreports.py: JUnit and Checkstyle XML.

docs/project-rules.md ("Output formats") says what each holds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .common import Context

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

FORMATS = (
    "text",
    "json",
    "jsonl",
    "sarif",
    "github",
    "quickfix",
    "rdjson",
    "rdjsonl",
    "codeclimate",
    "junit",
    "checkstyle",
)
# Formats that carry the compile recipe's planned edits.
WITH_FIXES = frozenset({"sarif", "rdjson", "rdjsonl"})

Renderer = Callable[["Sequence[FailureRecord]", Context], str]


def renderer(fmt: str) -> Renderer:
    if fmt in ("text", "json", "jsonl"):
        from . import text

        return {"text": text.render_text, "json": text.render_json, "jsonl": text.render_jsonl}[fmt]
    if fmt == "sarif":
        from .sarif import render_sarif

        return render_sarif
    if fmt == "github":
        from .github import render_github

        return render_github
    if fmt == "quickfix":
        from .quickfix import render_quickfix

        return render_quickfix
    if fmt in ("rdjson", "rdjsonl"):
        from . import reviewdog

        return reviewdog.render_rdjson if fmt == "rdjson" else reviewdog.render_rdjsonl
    if fmt == "codeclimate":
        from .codeclimate import render_codeclimate

        return render_codeclimate
    if fmt in ("junit", "checkstyle"):
        from . import xmlreports

        return xmlreports.render_junit if fmt == "junit" else xmlreports.render_checkstyle
    raise ValueError(f"unknown format {fmt!r}")


def render(records: Sequence[FailureRecord], fmt: str, ctx: Context | None = None) -> str:
    """The records in one of FORMATS."""
    if ctx is None:
        ctx = Context(plan_fixes=False)
    if fmt not in WITH_FIXES:
        ctx.plan_fixes = False
    return renderer(fmt)(records, ctx)


__all__ = ["FORMATS", "Context", "render"]
