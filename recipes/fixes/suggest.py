"""Edits from the tool's own suggestions: "did you mean", machine-applicable
replacements (rustc JSON, clang fix-its), "consider importing", "#include"."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from faultlens.classifier.columns import ColumnUnit, code_point_column
from faultlens.classifier.lazyre import lazy_compile

from ..model import TextEdit

_IDENT = lazy_compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*", re.ASCII)
_USE = lazy_compile(
    r"use [A-Za-z_][A-Za-z0-9_]*(?:::(?:[A-Za-z0-9_]+|\*|\{[A-Za-z0-9_:, *]+\}))*;", re.ASCII
)
_HEADER = lazy_compile(r"[<\"][A-Za-z0-9_./+-]{1,200}[>\"]", re.ASCII)
_LINE_END = lazy_compile(r"\r\n|\r|\n")  # the line ends TextEdit positions count


def _lines(text: str) -> list[str]:
    return _LINE_END.split(text)


def replace_name(
    rel: str,
    text: str,
    line1: int | None,
    col1: int | None,
    name: str,
    replacement: str,
    unit: ColumnUnit | None = None,
) -> TextEdit | None:
    """Replace `name` by `replacement` at the reported place (1-based line and
    column, the column counted in `unit`: the record's hint["column_unit"]),
    or at the name's only whole-word occurrence on that line."""
    if not line1 or not _IDENT.fullmatch(replacement) or not _IDENT.fullmatch(name):
        return None
    lines = _lines(text)
    if line1 > len(lines):
        return None
    line = lines[line1 - 1]
    start = code_point_column(line, col1 - 1, unit) if col1 else -1
    if start < 0 or line[start : start + len(name)] != name:
        hits = [m.start() for m in re.finditer(rf"(?<![\w$]){re.escape(name)}(?![\w$])", line)]
        if len(hits) != 1:
            return None
        start = hits[0]
    return TextEdit(rel, line1 - 1, start, line1 - 1, start + len(name), replacement)


def _num(d: Mapping[str, Any], *keys: str) -> int | None:
    for k in keys:
        v = d.get(k)
        if isinstance(v, int) and v > 0:
            return v
    return None


def structured_edits(
    suggestions: list[Any], default_rel: str | None, to_rel: Any
) -> list[TextEdit] | None:
    """Edits from machine-applicable suggestions (dicts with 1-based line/column
    spans and a replacement; rustc's and clang's field names both accepted).
    None when any suggestion is not machine-applicable or incomplete."""
    edits: list[TextEdit] = []
    for s in suggestions:
        if not isinstance(s, Mapping):
            return None
        if "applicability" in s and s["applicability"] != "MachineApplicable":
            return None  # rustc: MaybeIncorrect, HasPlaceholders, Unspecified
        file = s.get("file") or s.get("file_name")
        rel = to_rel(file) if isinstance(file, str) else default_rel
        if isinstance(s.get("insert_line"), str) and "end_line" not in s:
            # gcc's `+++ |+#include <x>`: a whole line inserted before `line`.
            line = _num(s, "line")
            if not rel or not line or "\n" in s["insert_line"]:
                return None
            edits.append(TextEdit(rel, line - 1, 0, line - 1, 0, s["insert_line"] + "\n"))
            continue
        text = s.get("replacement", s.get("suggested_replacement", s.get("text")))
        if not isinstance(text, str):
            return None
        line = _num(s, "line", "line_start")
        col = _num(s, "column", "column_start")
        end_line = _num(s, "end_line", "line_end") or line
        end_col = _num(s, "end_column", "column_end") or col
        if not rel or not line or not col or not end_line or not end_col:
            return None
        edits.append(TextEdit(rel, line - 1, col - 1, end_line - 1, end_col - 1, text))
    return _dedupe(edits) or None


def in_code_points(
    edits: list[TextEdit], text_of: Callable[[str], str | None], unit: ColumnUnit | None
) -> list[TextEdit] | None:
    """`edits` whose columns count `unit` (a compiler's parseable fix-its count
    UTF-8 bytes) with their columns converted to code points on their lines'
    text; None when a file they edit cannot be read."""
    if unit is None:
        return edits
    texts: dict[str, list[str] | None] = {}
    out: list[TextEdit] = []
    for e in edits:
        if e.path not in texts:
            text = text_of(e.path)
            texts[e.path] = None if text is None else _lines(text)
        lines = texts[e.path]
        if lines is None:
            return None

        def col(line: int, column: int, lines: list[str] = lines) -> int:
            return code_point_column(lines[line], column, unit) if line < len(lines) else column

        out.append(
            replace(e, start_col=col(e.start_line, e.start_col), end_col=col(e.end_line, e.end_col))
        )
    return out


def _dedupe(edits: list[TextEdit]) -> list[TextEdit]:
    """Drop repeated edits (gcc prints an insertion both as `+++ |+` and as a
    parseable fix-it)."""
    out: list[TextEdit] = []
    seen: set[tuple[str, int, int, int, int, str]] = set()
    for e in edits:
        key = (e.path, e.start_line, e.start_col, e.end_line, e.end_col, e.new_text)
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out


_RUST_ITEM = (
    "fn ",
    "pub fn ",
    "pub(crate) fn ",
    "impl",
    "struct ",
    "pub struct ",
    "enum ",
    "pub enum ",
    "trait ",
    "pub trait ",
    "macro_rules!",
)


def _after_inner_attributes(lines: list[str]) -> int:
    """The line after the file's leading comments and inner attributes
    (`#![no_std]`, a `#![allow(` spanning lines)."""
    at = 0
    while at < len(lines):
        s = lines[at].strip()
        if s.startswith("#!["):
            depth = 0
            while at < len(lines):
                depth += lines[at].count("[") - lines[at].count("]")
                at += 1
                if depth <= 0:
                    break
            continue
        if not s or s.startswith("//"):
            at += 1
            continue
        break
    return at


def rust_use_edit(rel: str, text: str, stmt: str) -> TextEdit | None:
    """Insert a `use ...;` after the file's last top-level `use` (before its
    first item), or after its leading comments and inner attributes."""
    stmt = stmt.strip()
    if not _USE.fullmatch(stmt):
        return None
    lines = text.splitlines()
    if any(ln.strip() == stmt for ln in lines):
        return None
    last_use = None
    for i, ln in enumerate(lines):
        if ln.startswith(("use ", "pub use ")):
            last_use = i
        elif ln.startswith(_RUST_ITEM):
            break
    if last_use is not None:
        end = last_use
        while end < len(lines) and not lines[end].rstrip().endswith(";"):
            end += 1  # a `use a::{` spanning lines
        return TextEdit(rel, end + 1, 0, end + 1, 0, stmt + "\n")
    at = _after_inner_attributes(lines)
    while at > 0 and not lines[at - 1].strip():
        at -= 1
    lead = "\n" if at > 0 else ""
    return TextEdit(rel, at, 0, at, 0, lead + stmt + "\n")


def _guarded(lines: list[str]) -> bool:
    """Whether a header's include guard (`#ifndef X_H` / `#define X_H`) opens it."""
    code = [
        ln.strip() for ln in lines if ln.strip() and not ln.strip().startswith(("//", "/*", "*"))
    ]
    return len(code) > 1 and code[0].startswith("#ifndef") and code[1].startswith("#define")


def include_edit(rel: str, text: str, header: str) -> TextEdit | None:
    """Insert `#include <header>` after the file's last #include (or at the top)."""
    if not _HEADER.fullmatch(header):
        return None
    lines = text.splitlines()
    directive = f"#include {header}"
    if any(ln.strip() == directive for ln in lines):
        return None
    last = None
    depth = 0  # inside #if/#ifdef ... #endif: an include there is conditional
    for i, ln in enumerate(lines):
        word = ln.lstrip().lstrip("#").lstrip() if ln.lstrip().startswith("#") else ""
        if word.startswith(("if", "ifdef", "ifndef")):
            depth += 1
        elif word.startswith("endif"):
            depth = max(0, depth - 1)
        elif word.startswith("include") and depth == (1 if _guarded(lines) else 0):
            last = i
    at = 0 if last is None else last + 1
    return TextEdit(rel, at, 0, at, 0, directive + "\n")
