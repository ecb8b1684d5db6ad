"""Reading a compiler plugin's Vim script as a fresh Vim (`vim -u NONE`)
sources it, for the 'errorformat' it sets: `if`/`elseif`/`else` on
`exists()`, `has()` and friends, `CompilerSet`/`setlocal`/`let &l:efm`,
`execute` over string literals and variables, `runtime` of another plugin.
What it cannot follow it reports in `Reader.unreadable`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .lazyre import lazy_compile
from .vimscript_text import (
    has_item,
    logical_lines,
    remove_item,
    set_value,
    split_concat,
    split_top,
    string_literal,
    strip_comment,
)

MAX_PLUGIN_BYTES = 256 * 1024
MAX_DEPTH = 4  # `runtime compiler/x.vim` nesting

# Vim's default 'errorformat' (a Unix build), for `CompilerSet errorformat&`
# and for the plugins that set none (`:compiler` leaves it as it was).
DEFAULT_EFM = (
    '%*[^"]"%f"%*\\D%l: %m,"%f"%*\\D%l: %m,'
    "%-G%f:%l: (Each undeclared identifier is reported only once,"
    "%-G%f:%l: for each function it appears in.),"
    "%-GIn file included from %f:%l:%c:,%-GIn file included from %f:%l:%c\\,,"
    "%-GIn file included from %f:%l:%c,%-GIn file included from %f:%l,"
    "%-G%*[ ]from %f:%l:%c,%-G%*[ ]from %f:%l:,%-G%*[ ]from %f:%l\\,,%-G%*[ ]from %f:%l,"
    '%f:%l:%c:%m,%f(%l):%m,%f:%l:%m,"%f"\\, line %l%*\\D%c%*[^ ] %m,'
    "%D%*\\a[%*\\d]: Entering directory %*[`']%f',"
    "%X%*\\a[%*\\d]: Leaving directory %*[`']%f',"
    "%D%*\\a: Entering directory %*[`']%f',%X%*\\a: Leaving directory %*[`']%f',"
    "%DMaking %*\\a in %f,%f|%l| %m"
)


def _read(path: Path) -> str:
    from .files import read_bytes

    return read_bytes(path, MAX_PLUGIN_BYTES).decode("utf-8", "replace")


_SET = lazy_compile(
    r"^\s*(?:CompilerSet|setl(?:ocal)?|se(?:t)?)\s+(?:errorformat|efm)\s*(\+=|\^=|-=|=|&)(.*)$"
)
_LET_EFM = lazy_compile(r"^\s*let\s+&(?:l:)?(?:errorformat|efm)\s*(\.\.=|\.=|=)\s*(.*)$")
_LET = lazy_compile(r"^\s*(?:let|const|final|var)\s+((?:[sgbl]:)?[A-Za-z_]\w*)\s*=\s*(.*)$")
_EXE = lazy_compile(r"^\s*exe(?:cute)?\s+(.*)$")
_RUNTIME = lazy_compile(r"^\s*ru(?:ntime)?!?\s+(\S+)\s*$")
_IF = lazy_compile(r"^\s*(if|elseif|else|endif|en|endi|el|elsei)\b\s*(.*)$")


@dataclass
class Reader:
    dirs: Sequence[Path]
    efm: str = DEFAULT_EFM
    vars: dict[str, str | list[str]] = field(default_factory=dict)
    unreadable: str = ""

    def source(self, path: Path, depth: int) -> None:
        if depth > MAX_DEPTH or self.unreadable:
            return
        try:
            text = _read(path)
        except OSError as exc:
            self.unreadable = f"cannot read {path}: {exc.strerror or exc}"
            return
        # (taken, done): whether the current branch runs, whether one already ran
        stack: list[tuple[bool, bool]] = []
        for line in logical_lines(text):
            code = strip_comment(line)
            if not code.strip():
                continue
            m = _IF.match(code)
            if m:
                self._branch(stack, m.group(1), m.group(2))
                continue
            if stack and not stack[-1][0]:
                continue
            if re.match(r"^\s*fini(?:sh)?\b", code):
                return
            self.statement(code, depth)
            if self.unreadable:
                return

    def _branch(self, stack: list[tuple[bool, bool]], word: str, cond: str) -> None:
        outer = all(t for t, _ in stack)
        if word == "if":
            value = outer and self.condition(cond)
            stack.append((value, value))
        elif word in ("elseif", "elsei") and stack:
            _, done = stack.pop()
            value = outer and not done and self.condition(cond)
            stack.append((value, done or value))
        elif word in ("else", "el") and stack:
            _, done = stack.pop()
            stack.append((outer and not done, True))
        elif word in ("endif", "en", "endi") and stack:
            stack.pop()

    def statement(self, code: str, depth: int) -> None:
        if m := _SET.match(code):
            self.set_efm(m.group(1), set_value(m.group(2)))
        elif m := _LET_EFM.match(code):
            value = self.expr(m.group(2))
            if isinstance(value, str):
                self.efm = value if m.group(1) == "=" else self.efm + value
            else:
                self.unreadable = f"`{code.strip()}`"
        elif m := _EXE.match(code):
            if "efm" not in code and "errorformat" not in code:
                return
            value = self.expr(m.group(1))
            if isinstance(value, str) and (s := _SET.match(value)):
                self.set_efm(s.group(1), set_value(s.group(2)))
            else:
                self.unreadable = f"`{code.strip()}`"
        elif m := _LET.match(code):
            value = self.expr(m.group(2))
            if value is not None:
                self.vars[m.group(1).removeprefix("s:")] = value
        elif m := _RUNTIME.match(code):
            rel = m.group(1)
            for d in self.dirs:
                p = d / rel
                if p.is_file():
                    self.source(p, depth + 1)
                    break
        elif re.search(r"\b(?:errorformat|efm)\b", code) and "current_compiler" not in code:
            self.unreadable = f"`{code.strip()[:80]}`"

    def set_efm(self, op: str, value: str) -> None:
        if op == "&":
            self.efm = DEFAULT_EFM
        elif op == "=":
            self.efm = value
        elif op in ("+=", "^="):
            if has_item(self.efm, value):
                return
            if not self.efm or not value:
                self.efm = self.efm or value
            elif op == "+=":
                self.efm = f"{self.efm},{value}"
            else:
                self.efm = f"{value},{self.efm}"
        elif op == "-=":
            self.efm = remove_item(self.efm, value)

    # -- a little Vim script: just what compiler plugins use --------------------
    def condition(self, text: str) -> bool:
        value = self.cond_value(text.strip())
        if value is None:
            return False
        return bool(value)

    def cond_value(self, text: str) -> int | None:
        for op in ("||", "&&"):
            parts = split_top(text, op)
            if len(parts) > 1:
                vals = [self.cond_value(p.strip()) for p in parts]
                if any(v is None for v in vals):
                    return None
                return int(any(vals)) if op == "||" else int(all(vals))
        if text.startswith("!"):
            v = self.cond_value(text[1:].strip())
            return None if v is None else int(not v)
        if text.startswith("(") and text.endswith(")"):
            return self.cond_value(text[1:-1].strip())
        for op in (
            "==#",
            "==?",
            "!=#",
            "!=?",
            "=~#",
            "=~?",
            "==",
            "!=",
            "=~",
            ">=",
            "<=",
            ">",
            "<",
        ):
            sides = split_top(text, op)
            if len(sides) == 2:
                a, b = self.atom(sides[0]), self.atom(sides[1])
                if a is None or b is None or op.startswith("=~"):
                    return None
                base = op[:2]
                if base in ("==", "!="):
                    return int((a == b) == (base == "=="))
                if isinstance(a, int) and isinstance(b, int):
                    return int({">=": a >= b, "<=": a <= b, ">": a > b, "<": a < b}[op])
                return None
        val = self.atom(text)
        return None if val is None else int(bool(val))

    def atom(self, text: str) -> int | str | None:
        text = text.strip()
        if re.fullmatch(r"-?\d+", text):
            return int(text)
        if text in ("v:true", "true"):
            return 1
        if text in ("v:false", "false"):
            return 0
        s = string_literal(text)
        if s is not None:
            return s[0] if s[1] == len(text) else None
        if m := re.fullmatch(r"exists\(\s*(['\"])(.*?)\1\s*\)", text):
            what = m.group(2)
            if what == ":CompilerSet":
                return 2
            return int(what.removeprefix("s:") in self.vars)
        if m := re.fullmatch(r"get\(\s*[gbws]:\s*,\s*(['\"])(.*?)\1\s*,\s*(.*)\)", text):
            return self.atom(m.group(3))
        if re.fullmatch(
            r"has\(\s*(['\"])(patch-[\d.]+|eval|unix|vim9script|nvim-0.\d+)\1\s*\)", text
        ):
            return 1
        if re.fullmatch(r"has\(.*\)", text):
            return 0
        if re.fullmatch(r"(?:filereadable|executable|isdirectory)\(.*\)", text):
            return 0
        name = text.removeprefix("s:")
        if name in self.vars and isinstance(self.vars[name], str):
            return self.vars[name]  # type: ignore[return-value]
        return None

    def expr(self, text: str) -> str | list[str] | None:
        """String literals, lists of them, variables, `..`/`.`, join(), escape()."""
        parts = split_concat(text.strip())
        if parts is None:
            return None
        out: list[str] = []
        for p in parts:
            v = self.term(p.strip())
            if v is None:
                return None
            if isinstance(v, list):
                if len(parts) == 1:
                    return v
                return None
            out.append(v)
        return "".join(out)

    def term(self, text: str) -> str | list[str] | None:
        s = string_literal(text)
        if s is not None and s[1] == len(text):
            return s[0]
        if text.startswith("[") and text.endswith("]"):
            items: list[str] = []
            for item in split_top(text[1:-1], ","):
                item = item.strip()
                if not item:
                    continue
                lit = string_literal(item)
                if lit is None or lit[1] != len(item):
                    return None
                items.append(lit[0])
            return items
        if m := re.fullmatch(r"join\((.*)\)", text, re.S):
            args = split_top(m.group(1), ",")
            lst = self.term(args[0].strip())
            sep = string_literal(args[1].strip()) if len(args) > 1 else (" ", 0)
            if isinstance(lst, list) and sep is not None:
                return sep[0].join(lst)
            return None
        if m := re.fullmatch(r"escape\s*\((.*)\)", text, re.S):
            args = split_top(m.group(1), ",")
            if len(args) != 2:
                return None
            val = self.expr(args[0])
            chars = string_literal(args[1].strip())
            if not isinstance(val, str) or chars is None:
                return None
            return "".join("\\" + c if c in chars[0] or c == "\\" else c for c in val)
        if re.fullmatch(r"&(?:l:)?(?:errorformat|efm)", text):
            return self.efm
        name = text.removeprefix("s:")
        if re.fullmatch(r"(?:[gbl]:)?[A-Za-z_]\w*", text) and name in self.vars:
            return self.vars[name]
        return None
