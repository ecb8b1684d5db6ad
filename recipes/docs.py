"""Recipe documents: `recipes/<failure_type>.md` (shipped) or the project's
override `<state_dir>/recipes/<failure_type>.md`.

A document starts with TOML front matter between `+++` lines (parsed with the
standard library's tomllib), then Markdown with fixed sections:

    +++
    failure_type = "compile"
    title = "..."
    automatic = true
    steps = ["...", "..."]
    [verify]
    mode = "rerun"        # rerun | single-test | recheck-file | handshake | none
    timeout = 600
    [retry]
    attempts = 1
    backoff = []
    +++
    # Compile
    summary paragraph
    ## What it does / ## Steps / ## Verification / ## When it gives up /
    ## Options left to a human / ## Safety

An override replaces the text; its front matter keys are merged over the
shipped ones (so a project can set `automatic = false` and nothing else).
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from faultlens.classifier.taxonomy import FailureType

from .model import RecipeDoc, Workspace

SECTIONS = (
    "What it does",
    "Steps",
    "Verification",
    "When it gives up",
    "Options left to a human",
    "Safety",
)
FRONT_MATTER_KEYS = ("failure_type", "title", "automatic", "steps", "verify", "retry")


class RecipeDocError(ValueError):
    """A recipe document is malformed."""


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    """(front matter, body) of a document; front matter is `{}` when absent."""
    if not text.startswith("+++"):
        return {}, text
    lines = text.splitlines(keepends=True)
    for i in range(1, len(lines)):
        if lines[i].strip() == "+++":
            try:
                data = tomllib.loads("".join(lines[1:i]))
            except tomllib.TOMLDecodeError as exc:
                raise RecipeDocError(f"bad front matter: {exc}") from exc
            return data, "".join(lines[i + 1 :])
    raise RecipeDocError("front matter is not closed with +++")


def _title_and_summary(body: str) -> tuple[str, str]:
    title, in_summary = "", False
    summary_lines: list[str] = []
    for ln in body.splitlines():
        s = ln.strip()
        if not title and s.startswith("# "):
            title, in_summary = s[2:].strip(), True
            continue
        if in_summary:
            if s.startswith("#"):
                break
            if not s and summary_lines:
                break
            if s:
                summary_lines.append(s)
    return title, " ".join(summary_lines)


def sections(body: str) -> list[str]:
    """The `## ` headings of a body, in order."""
    return [ln[3:].strip() for ln in body.splitlines() if ln.startswith("## ")]


def shipped_text(failure_type: str) -> str:
    return (resources.files("faultlens.recipes") / f"{failure_type}.md").read_text("utf-8")


def parse(failure_type: str, text: str, path: str, overridden: bool = False) -> RecipeDoc:
    front, body = split_front_matter(text)
    title, summary = _title_and_summary(body)
    return RecipeDoc(
        failure_type=failure_type,
        title=str(front.get("title") or title or failure_type),
        summary=summary,
        body_markdown=body.lstrip("\n"),
        front_matter=front,
        path=path,
        overridden=overridden,
    )


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def recipe_doc(failure_type: str, ws: Workspace | None = None) -> RecipeDoc:
    """The recipe document of a failure type; the project override wins."""
    ft = FailureType(failure_type).value
    shipped = parse(ft, shipped_text(ft), f"recipes/{ft}.md")
    if ws is None:
        return shipped
    override = Path(ws.state) / "recipes" / f"{ft}.md"
    try:
        text = override.read_text("utf-8")
    except (FileNotFoundError, IsADirectoryError):
        return shipped
    doc = parse(ft, text, str(override), overridden=True)
    doc.front_matter = _merge(shipped.front_matter, doc.front_matter)
    if not doc.body_markdown.strip():
        doc.body_markdown = shipped.body_markdown
        doc.summary = shipped.summary
    if not doc.title or doc.title == ft:
        doc.title = shipped.title
    return doc


def setting(doc: RecipeDoc, dotted: str, default: Any) -> Any:
    """A front matter value by dotted key (`verify.timeout`), or `default`."""
    cur: Any = doc.front_matter
    for part in dotted.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return default
        cur = cur[part]
    return cur
