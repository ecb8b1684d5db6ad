"""Vim's compiler plugins: the 'errorformat' that `:compiler NAME` sets.

A project rule may say `compiler = "rubocop"` and get the errorformat of
Vim's own `compiler/rubocop.vim`, read from the installed runtime
($VIMRUNTIME, else the usual places of Vim's and Neovim's runtime, and the
user's ~/.vim and ~/.config/nvim first, as Vim's 'runtimepath' has them).

The plugin is read, not run: this module follows what a fresh Vim
(`vim -u NONE`) does when it sources it — continuation lines, `runtime
compiler/other.vim`, `if`/`elseif`/`else` on `exists()`, `get()`, `has()`
and friends evaluated as in a fresh Vim (no g: or b: variables set),
`CompilerSet`/`setlocal` of 'errorformat' with `=`, `+=`, `^=`, `-=` and
`&`, `let &l:efm = ...` and `execute '...' .. escape(var, ' ')` over string
literals, `join()`ed lists and variables.  A plugin that computes its
errorformat any other way (an autoload function) is reported as unreadable,
with the way out.  tests/test_errorformat_vim.py checks every plugin of the
installed runtime against real Vim.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+-]{0,63}$")
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


class CompilerError(ValueError):
    """No such compiler plugin, or one that cannot be read; one line."""


def runtime_dirs(env: dict[str, str] | None = None) -> list[Path]:
    """Where compiler plugins are looked for, in Vim's order."""
    env = dict(os.environ) if env is None else env
    home = Path(env.get("HOME", "~")).expanduser()
    out = [home / ".vim", home / ".config" / "nvim"]
    runtime = env.get("VIMRUNTIME")
    if runtime:
        out.append(Path(runtime))
    for base in ("/usr/share", "/usr/local/share", "/opt/homebrew/share"):
        vims = sorted(Path(base, "vim").glob("vim[0-9]*"), reverse=True)
        out.extend(vims)
        out.append(Path(base, "nvim", "runtime"))
    seen: list[Path] = []
    for d in out:
        if d not in seen:
            seen.append(d)
    return seen


def find_plugin(name: str, dirs: Sequence[Path] | None = None) -> Path | None:
    """compiler/NAME.vim in the first runtime directory that has it."""
    for d in runtime_dirs() if dirs is None else dirs:
        p = d / "compiler" / f"{name}.vim"
        try:
            if stat.S_ISREG(p.stat().st_mode):
                return p
        except OSError:
            continue
    return None


def errorformat(name: str, dirs: Sequence[Path] | None = None) -> str:
    """The 'errorformat' `:compiler NAME` sets; CompilerError says why not."""
    if not NAME.match(name):
        raise CompilerError(f"`compiler` {name!r} is not a compiler plugin's name")
    search = runtime_dirs() if dirs is None else list(dirs)
    plugin = find_plugin(name, search)
    if plugin is None:
        if not any((d / "compiler").is_dir() for d in search):
            raise CompilerError(
                f"compiler {name!r}: no Vim runtime found (install Vim or Neovim, or set "
                "$VIMRUNTIME); give `errorformat` instead"
            )
        raise CompilerError(f"compiler {name!r}: no compiler/{name}.vim in Vim's runtime")
    reader = _Reader(search)
    for d in search:  # every runtime directory's plugin, in order (Vim's DIP_ALL)
        p = d / "compiler" / f"{name}.vim"
        if p == plugin or (p.is_file() and not p.is_symlink()):
            reader.source(p, 0)
    if reader.unreadable:
        raise CompilerError(
            f"compiler {name!r}: {plugin} computes its errorformat with Vim script faultlens "
            f"does not run ({reader.unreadable}); give `errorformat` (Vim: "
            f"`:compiler {name} | echo &efm`)"
        )
    return reader.efm


def _read(path: Path) -> str:
    from .files import read_bytes

    return read_bytes(path, MAX_PLUGIN_BYTES).decode("utf-8", "replace")


def logical_lines(text: str) -> Iterator[str]:
    """Vim script lines with continuations joined: a `\\` at the start of
    the next line (`"\\ ` continuation comments dropped), and, as Vim9
    script allows, the lines of a list or call left open."""
    cur: str | None = None
    for raw in text.splitlines():
        stripped = raw.lstrip(" \t")
        if cur is not None and (stripped.startswith("\\") or _open_brackets(cur) > 0):
            cur += stripped[1:] if stripped.startswith("\\") else " " + stripped
            continue
        if cur is not None and stripped.startswith('"\\ '):
            continue
        if cur is not None:
            yield cur
        cur = raw
    if cur is not None:
        yield cur


def _open_brackets(line: str) -> int:
    """How many `[` and `(` the code of a line leaves open (0 for comments)."""
    if line.lstrip().startswith(('"', "#")):
        return 0
    walked = list(_walk(line))
    return walked[-1][2] if walked else 0


_SET = re.compile(
    r"^\s*(?:CompilerSet|setl(?:ocal)?|se(?:t)?)\s+(?:errorformat|efm)\s*(\+=|\^=|-=|=|&)(.*)$"
)
_LET_EFM = re.compile(r"^\s*let\s+&(?:l:)?(?:errorformat|efm)\s*(\.\.=|\.=|=)\s*(.*)$")
_LET = re.compile(r"^\s*(?:let|const|final|var)\s+((?:[sgbl]:)?[A-Za-z_]\w*)\s*=\s*(.*)$")
_EXE = re.compile(r"^\s*exe(?:cute)?\s+(.*)$")
_RUNTIME = re.compile(r"^\s*ru(?:ntime)?!?\s+(\S+)\s*$")
_IF = re.compile(r"^\s*(if|elseif|else|endif|en|endi|el|elsei)\b\s*(.*)$")


@dataclass
class _Reader:
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
            code = _strip_comment(line)
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
            self.set_efm(m.group(1), _set_value(m.group(2)))
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
                self.set_efm(s.group(1), _set_value(s.group(2)))
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
            if _has_item(self.efm, value):
                return
            if not self.efm or not value:
                self.efm = self.efm or value
            elif op == "+=":
                self.efm = f"{self.efm},{value}"
            else:
                self.efm = f"{value},{self.efm}"
        elif op == "-=":
            self.efm = _remove_item(self.efm, value)

    # -- a little Vim script: just what compiler plugins use --------------------
    def condition(self, text: str) -> bool:
        value = self.cond_value(text.strip())
        if value is None:
            return False
        return bool(value)

    def cond_value(self, text: str) -> int | None:
        for op in ("||", "&&"):
            parts = _split_top(text, op)
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
            sides = _split_top(text, op)
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
        s = _string_literal(text)
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
        parts = _split_concat(text.strip())
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
        s = _string_literal(text)
        if s is not None and s[1] == len(text):
            return s[0]
        if text.startswith("[") and text.endswith("]"):
            items: list[str] = []
            for item in _split_top(text[1:-1], ","):
                item = item.strip()
                if not item:
                    continue
                lit = _string_literal(item)
                if lit is None or lit[1] != len(item):
                    return None
                items.append(lit[0])
            return items
        if m := re.fullmatch(r"join\((.*)\)", text, re.S):
            args = _split_top(m.group(1), ",")
            lst = self.term(args[0].strip())
            sep = _string_literal(args[1].strip()) if len(args) > 1 else (" ", 0)
            if isinstance(lst, list) and sep is not None:
                return sep[0].join(lst)
            return None
        if m := re.fullmatch(r"escape\s*\((.*)\)", text, re.S):
            args = _split_top(m.group(1), ",")
            if len(args) != 2:
                return None
            val = self.expr(args[0])
            chars = _string_literal(args[1].strip())
            if not isinstance(val, str) or chars is None:
                return None
            return "".join("\\" + c if c in chars[0] or c == "\\" else c for c in val)
        if re.fullmatch(r"&(?:l:)?(?:errorformat|efm)", text):
            return self.efm
        name = text.removeprefix("s:")
        if re.fullmatch(r"(?:[gbl]:)?[A-Za-z_]\w*", text) and name in self.vars:
            return self.vars[name]
        return None


def _set_value(rest: str) -> str:
    """A `:set opt=value` value as Vim keeps it: one backslash dropped before
    any character; the value ends at unescaped white space, `|` or `"`."""
    out: list[str] = []
    i = 0
    while i < len(rest):
        c = rest[i]
        if c == "\\" and i + 1 < len(rest):
            out.append(rest[i + 1])
            i += 2
            continue
        if c in ' \t|"':
            break
        out.append(c)
        i += 1
    return "".join(out)


def _strip_comment(line: str) -> str:
    """The line without a trailing `"` comment (outside string literals)."""
    s = line.lstrip()
    if s.startswith('"') or s.startswith("#"):
        return ""
    return line


def _has_item(value: str, item: str) -> bool:
    return item != "" and item in _items(value)


def _items(value: str) -> list[str]:
    out, cur, i = [], [], 0
    while i < len(value):
        c = value[i]
        if c == "\\" and i + 1 < len(value):
            cur.append(value[i : i + 2])
            i += 2
            continue
        if c == ",":
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    out.append("".join(cur))
    return out


def _remove_item(value: str, item: str) -> str:
    items = _items(value)
    if item in items:
        items.remove(item)
    return ",".join(items)


def _string_literal(text: str) -> tuple[str, int] | None:
    """A Vim string literal at the start of text: (value, length)."""
    if text.startswith("'"):
        out, i = [], 1
        while i < len(text):
            if text[i] == "'":
                if text.startswith("''", i):
                    out.append("'")
                    i += 2
                    continue
                return "".join(out), i + 1
            out.append(text[i])
            i += 1
        return None
    if text.startswith('"'):
        out, i = [], 1
        esc = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "e": "\x1b", "r": "\r"}
        while i < len(text):
            c = text[i]
            if c == "\\" and i + 1 < len(text):
                out.append(esc.get(text[i + 1], text[i + 1]))
                i += 2
                continue
            if c == '"':
                return "".join(out), i + 1
            out.append(c)
            i += 1
        return None
    return None


def _walk(text: str) -> Iterator[tuple[int, str, int]]:
    """(index, character, bracket depth after it) of the characters of
    `text` outside string literals; an unclosed literal ends the walk with
    (-1, "", 0)."""
    depth = 0
    i = 0
    while i < len(text):
        c = text[i]
        if c in "'\"":
            lit = _string_literal(text[i:])
            if lit is None:
                yield -1, "", 0
                return
            i += lit[1]
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        yield i, c, depth
        i += 1


def _split_top(text: str, sep: str) -> list[str]:
    """text split at `sep` outside strings, brackets and parentheses."""
    out: list[str] = []
    start = 0
    skip_to = 0
    for i, c, depth in _walk(text):
        if i < 0:
            break
        if i < skip_to:
            continue
        if depth == 0 and c not in ")]}" and text.startswith(sep, i):
            out.append(text[start:i])
            start = skip_to = i + len(sep)
    out.append(text[start:])
    return out


def _split_concat(text: str) -> list[str] | None:
    """`a .. b . c` split at the concatenation operators."""
    parts = _split_top(text, "..")
    out: list[str] = []
    for p in parts:
        out.extend(q for q in _split_top(p, " . ") if q.strip())
    return out or None
