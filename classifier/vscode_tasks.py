"""The problem matchers of a workspace's .vscode/tasks.json (JSON with
comments and trailing commas, as VS Code reads it) as rule specs."""

from __future__ import annotations

import json
import re
from typing import Any


# -- .vscode/tasks.json ------------------------------------------------------------
def loads_jsonc(text: str) -> Any:
    """JSON with // and /* */ comments and trailing commas, as VS Code reads
    tasks.json; ValueError says where it is not."""
    # 1. the comments out (strings kept whole), 2. the trailing commas out
    out: list[str] = []
    for kind, piece in _jsonc_tokens(text):
        if kind != "comment":
            out.append(piece)
    cleaned: list[str] = []
    for kind, piece in _jsonc_tokens("".join(out)):
        if kind == "text" and "," in piece:
            piece = re.sub(r",(\s*)(?=[\]}])", r"\1", piece)
        cleaned.append(piece)
    body = "".join(cleaned)
    try:
        return json.loads(body)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON with comments: {exc.msg} (line {exc.lineno})") from None
    except RecursionError:
        raise ValueError("nested too deeply") from None


def _jsonc_tokens(text: str) -> list[tuple[str, str]]:
    """text split into strings, comments and the rest."""
    out: list[tuple[str, str]] = []
    i = 0
    n = len(text)
    start = 0
    while i < n:
        c = text[i]
        if c == '"' or text.startswith(("//", "/*"), i):
            if start < i:
                out.append(("text", text[start:i]))
            if c == '"':
                j = i + 1
                while j < n and text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
                out.append(("string", text[i : j + 1]))
                i = j + 1
            elif text.startswith("//", i):
                j = text.find("\n", i)
                i = n if j < 0 else j
                out.append(("comment", ""))
            else:
                j = text.find("*/", i + 2)
                if j < 0:
                    raise ValueError("a /* comment is not closed")
                out.append(("comment", " "))
                i = j + 2
            start = i
            continue
        i += 1
    if start < n:
        out.append(("text", text[start:]))
    return out


def _slug(label: str) -> str:
    s = re.sub(r"[^a-z0-9_]+", "_", label.lower()).strip("_")
    return s[:40] or "task"


def specs_from_tasks(data: bytes) -> tuple[list[dict[str, Any]], list[str]]:
    """The rule specs of a tasks.json's problem matchers, and its problems."""
    try:
        doc = loads_jsonc(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return [], ["not UTF-8 text"]
    except ValueError as exc:
        return [], [str(exc)]
    if not isinstance(doc, dict):
        return [], ["the top level must be an object"]
    tasks = doc.get("tasks", [])
    if not isinstance(tasks, list):
        return [], ["`tasks` must be an array"]
    specs: list[dict[str, Any]] = []
    problems: list[str] = []
    used: set[str] = set()
    for n, task in enumerate(tasks, 1):
        if not isinstance(task, dict):
            problems.append(f"task #{n} is not an object")
            continue
        label = str(task.get("label") or task.get("taskName") or f"task {n}")
        pm = task.get("problemMatcher")
        if pm is None:
            continue
        for k, one in enumerate(pm if isinstance(pm, list) else [pm], 1):
            rid = f"vscode.{_slug(label)}" + (f"_{k}" if k > 1 else "")
            while rid in used:
                rid += "_"
            used.add(rid)
            specs.append({"id": rid, "category": "compile", "problemMatcher": one, "_task": label})
    return specs, problems
