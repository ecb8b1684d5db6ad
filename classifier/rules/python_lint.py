"""Reading the reports of the type checkers and linters people run on Python
code: mypy's notes and wrapped messages, pyright's continuation lines, ruff's
headers (the rules are in python/checkers.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..security_codes import is_security_code
from ..taxonomy import FailureType
from .base import Hit, LineContext, hit_from_match
from .python_causes import KNOWN_PACKAGES

MYPY_LOC = r"(?P<file>[^\s:][^:]*?\.pyi?):(?P<line>\d+)(?::(?P<column>\d+))?(?::(?P<end_line>\d+):(?P<end_column>\d+))?"
_MYPY_NOTE = lazy_compile(r"^" + MYPY_LOC + r": note: (?P<message>.*)$")
_MYPY_ANY = lazy_compile(r"^" + MYPY_LOC + r": (?:error|note|warning): ")
_MYPY_CODE = lazy_compile(r"\s+\[(?P<code>[a-z][a-z0-9-]*)\]\s*$")
_MYPY_MODULE = lazy_compile(r'module named "(?P<module>[^"]+)"')
_MYPY_NAME = lazy_compile(r'Name "(?P<name>[^"]+)" is not defined')
_MYPY_SUGGEST = lazy_compile(r'did you mean "(?P<suggestion>[^"]+)"\?')


class MypyBlock:
    """An error line and what belongs to it: its notes, and in `--pretty`
    mode the wrapped rest of the message and the source excerpt."""

    max_lines = 200

    def __init__(self, hit: Hit, needs_code: bool) -> None:
        self.hit = hit
        self.needs_code = needs_code
        self.wrapped = 0

    def feed(self, line: str, line_no: int) -> bool:
        n = _MYPY_NOTE.match(line)
        if n:
            note = n.group("message").strip()
            self.hit.related.append(
                (n.group("file"), int(n.group("line")), _int(n.group("column")), f"note: {note}")
            )
            self.hit.hint.setdefault("notes", []).append(note)
            return True
        if _MYPY_ANY.match(line):
            return False
        if line.startswith("    "):
            return True  # --pretty source excerpt and caret
        if (
            self.needs_code
            and self.wrapped < 3
            and line.strip()
            and not line.startswith(("Found ", "Success: "))
        ):
            self.wrapped += 1
            text = line.strip()
            c = _MYPY_CODE.search(" " + text)
            if c:
                self.hit.code = c.group("code")
                text = _MYPY_CODE.sub("", " " + text).strip()
                self.needs_code = False
            if text:
                self.hit.message = f"{self.hit.message} {text}"
            self.hit.hint.update(mypy_hint(self.hit.message))
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        return [self.hit]


def _int(v: str | None) -> int | None:
    return int(v) if v else None


def mypy_hint(message: str) -> dict[str, Any]:
    hint: dict[str, Any] = {}
    for pattern in (_MYPY_MODULE, _MYPY_NAME, _MYPY_SUGGEST):
        m = pattern.search(message)
        if m:
            hint.update(m.groupdict())
    module = hint.get("module")
    if isinstance(module, str):
        package = KNOWN_PACKAGES.get(module) or KNOWN_PACKAGES.get(module.split(".", 1)[0])
        if package:
            hint["package"] = package
    return hint


PYRIGHT_CODE = lazy_compile(r"\s*\((?P<code>report[A-Za-z]+)\)\s*$")
PYRIGHT_IMPORT = lazy_compile(r'Import "(?P<module>[^"]+)" could not be resolved')
PYRIGHT_NAME = lazy_compile(r'^"(?P<name>[^"]+)" is not defined')


class PyrightBlock:
    """A pyright diagnostic and its indented continuation lines."""

    max_lines = 50

    def __init__(self, hit: Hit, indent: int) -> None:
        self.hit = hit
        self.indent = indent
        self.detail: list[str] = []

    def feed(self, line: str, line_no: int) -> bool:
        if self.hit.code is not None:
            return False
        stripped = line.lstrip()  # pyright indents continuations with U+00A0
        if not stripped or len(line) - len(stripped) <= self.indent:
            return False
        c = PYRIGHT_CODE.search(stripped)
        if c:
            self.hit.code = c.group("code")
            stripped = stripped[: c.start()]
        self.detail.append(stripped.strip())
        return True

    def finish(self) -> Iterable[Hit]:
        if self.detail:
            self.hit.hint["detail"] = self.detail
        return [self.hit]


RUFF_CODE = r"(?P<code>[A-Z]{1,4}[0-9]{1,4}|invalid-syntax|SyntaxError|unformatted)"
RUFF_HEADER = lazy_compile(r"^" + RUFF_CODE + r"(?::)? (?P<fix>\[\*\] )?(?P<message>.+)$")
RUFF_DOCS = "https://docs.astral.sh/ruff/rules/"


def ruff_hit(m: re.Match[str], ctx: LineContext, code: str, message: str, fix: bool) -> Hit:
    hint: dict[str, Any] = {"fixable": fix}
    if code in ("invalid-syntax", "SyntaxError"):
        hint["syntax"] = True
    # flake8-bandit's S rules (ruff's port too) are security findings
    category = FailureType.TRUST_GATE if is_security_code(code, "ruff") else None
    return hit_from_match(m, ctx, code=code, message=message.strip(), hint=hint, category=category)
