"""Vim's quickfix parser: lines in, quickfix entries out, as `:cgetfile` does.

A line-by-line state machine that follows Vim's quickfix.c (`qf_parse_line`
and the functions it calls) step by step, so that an errorformat read here
gives the entries Vim gives (the differential test in
tests/test_errorformat_vim.py runs real Vim beside it):

* each line is tried against the formats in order; the first whose pattern
  matches (ignoring case) and whose conversions all took part wins;
* %E %W %I %N %A start a multi-line entry, %C lines add to it (the message
  after a newline; line, column, file, type and number where still unset),
  %Z ends it, a line that no format matches ends it too; %- drops the line
  (and, inside a multi-line entry, its continuation lines), %+ keeps the
  whole line as the message; %> starts the next line at this format;
* %D / %X push and pop the directory stack (a relative file is looked up in
  the directories pushed, as Vim's qf_guess_filepath does), %P / %Q push and
  pop the file stack (for entries that name no file), %O reads a file name
  and goes on; with %r, the rest of the line is read again;
* a line that matches nothing (or a %D/%X line) is an invalid entry whose
  text is the line, as in Vim; callers that want failures keep valid ones.

Deviations, for safety: a %O/%P/%Q format whose %r can take the whole line
(`%+P%r`) makes Vim read the same rest again for ever; here the rest is
read again only while it gets shorter.  Vim expands `$VAR` in file names read from output; a
log line must never pull environment values (secrets) into a record, so by
default only `~` is expanded here (`env` gives the variables to expand, as
the differential test does to show the expansion is Vim's).

Pure: the file system is asked only through the `exists` and `isdir`
callbacks, and every pattern match may carry a time limit (`timeout`).
Vim's text and file-name helpers are in classifier/quickfix_text.py, the
directory and file stacks in classifier/quickfix_stack.py.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .errorformat import Format
from .quickfix_stack import Stack
from .quickfix_text import (
    LINE_MAXLEN,
    atol,
    concat_fnames,
    cut_bytes,
    expand_env,
    int32,
    is_abs_name,
    printable,
    type_char,
)


@dataclass(slots=True)
class QuickfixEntry:
    """One quickfix entry, the fields of Vim's getqflist() items."""

    file: str = ""  # the buffer name Vim would give ('' when none)
    module: str = ""
    lnum: int = 0
    end_lnum: int = 0
    col: int = 0
    end_col: int = 0
    vcol: bool = False  # col is a screen column (%v, %p)
    pattern: str = ""
    nr: int = -1
    type: str = ""  # one character, or '' when none
    text: str = ""
    valid: bool = True
    line_no: int = 0  # the input line that started it (1-based)
    prefix: str = ""  # the prefix of the format that started it ('' for none)
    source: str = ""  # that line


@dataclass(slots=True)
class _Fields:
    namebuf: str = ""
    module: str = ""
    errmsg: str = ""
    lnum: int = 0
    end_lnum: int = 0
    col: int = 0
    end_col: int = 0
    use_viscol: bool = False
    pattern: str = ""
    enr: int = -1
    type: str = ""
    valid: bool = True


class QuickfixParser:
    """Feed lines, get entries; `close()` flushes the last one.

    `feed()` returns the entries no later line can change (Vim changes the
    last entry while a multi-line message goes on)."""

    def __init__(
        self,
        formats: Sequence[Format],
        *,
        exists: Callable[[str], bool] = os.path.exists,
        isdir: Callable[[str], bool] = os.path.isdir,
        home: str | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float | None = None,
    ) -> None:
        self.formats = list(formats)
        self.exists = exists
        self.isdir = isdir
        self.home = home if home is not None else os.path.expanduser("~")
        self.env: Mapping[str, str] = env or {}
        self.timeout = timeout
        self.multiline = False
        self.multiignore = False
        self.multiscan = False
        self.fmt_start: int | None = None
        self.dir_stack = Stack()
        self.file_stack = Stack()
        self.directory: str | None = None
        self.currfile: str | None = None
        self.last: QuickfixEntry | None = None
        # Why Vim would refuse the whole list (E379: a %D line naming no
        # directory), once it would; no entry comes out after that.
        self.aborted = ""
        self.lines = 0
        self.line = ""  # the line being read
        # What the last line did: "entry" (a valid entry), "general" (a %G
        # one), "continued" (added to a multi-line entry), "ignored" (%-, or
        # inside an ignored entry), "nomatch", "directory", "file" (%O %P %Q).
        self.action = ""

    @property
    def idle(self) -> bool:
        """Whether a line no format matches would change nothing but itself:
        no multi-line message open and no %> pending."""
        return not self.multiline and self.fmt_start is None

    @property
    def open_entry(self) -> bool:
        """Whether the last entry may still change (a multi-line message is open)."""
        return self.multiline and not self.multiignore and self.last is not None

    # -- input ------------------------------------------------------------------
    def feed(self, line: str, line_no: int | None = None) -> list[QuickfixEntry]:
        """Parse one line (without its newline); the entries now final.
        `line_no` numbers it (default: the count of lines fed)."""
        self.lines = self.lines + 1 if line_no is None else line_no
        if self.aborted:
            return []
        line = cut_bytes(line, LINE_MAXLEN - 1)
        self.line = line
        if line.startswith("\ufeff"):
            line = line[1:]
        entry = self._parse_line(line)
        if self.aborted:
            return []
        out: list[QuickfixEntry] = []
        if entry is not None:
            if self.last is not None:
                out.append(self.last)
            self.last = entry
        if self.last is not None and not self.open_entry:
            out.append(self.last)
            self.last = None
        return out

    def close(self) -> list[QuickfixEntry]:
        """The entry still open, if any."""
        last, self.last = self.last, None
        return [last] if last is not None and not self.aborted else []

    # -- qf_parse_line ----------------------------------------------------------
    def _parse_line(self, linebuf: str) -> QuickfixEntry | None:
        fields = _Fields()
        while True:  # restofline
            start = 0 if self.fmt_start is None else self.fmt_start
            self.fmt_start = None
            fields.valid = True
            matched: Format | None = None
            index = -1
            tail: str | None = None
            for index in range(start, len(self.formats)):
                fmt = self.formats[index]
                ok, tail = self._get_fields(linebuf, fmt, fields)
                if ok:
                    matched = fmt
                    break
            self.multiscan = False
            if matched is None or matched.prefix in ("D", "X"):
                if matched is not None and not self._dir_prefix(matched.prefix, fields):
                    self.aborted = (
                        f"line {self.lines}: a %D format matched but named no directory"
                        " (Vim refuses the whole list: E379)"
                    )
                    return None
                fields.namebuf = ""
                fields.lnum = 0
                fields.valid = False
                fields.errmsg = linebuf
                if matched is None:
                    self.multiline = self.multiignore = False
                    self.action = "nomatch"
                else:
                    self.action = "directory"
                return self._add(fields, "")
            if matched.conthere:
                self.fmt_start = index
            idx = matched.prefix
            if idx and idx in "AEWIN":
                self.multiline = True
                self.multiignore = False
            elif idx and idx in "CZ":
                self.action = "ignored" if self.multiignore else "continued"
                self._multiline_prefix(idx, fields)
                return None
            elif idx and idx in "OPQ" and self._file_prefix(idx, fields, tail):
                rest = (tail or "").lstrip(" \t")
                if len(rest) < len(linebuf):  # (Vim reads an unshortened rest for ever)
                    linebuf = rest
                    self.multiscan = True
                    continue
            if matched.flags == "-":
                if self.multiline:
                    self.multiignore = True
                self.action = "ignored"
                return None
            if idx and idx in "OPQ":
                self.action = "file"
            elif idx == "G":
                self.action = "general"
            else:
                self.action = "entry" if fields.valid else "file"
            return self._add(fields, idx)

    def _get_fields(self, linebuf: str, fmt: Format, f: _Fields) -> tuple[bool, str | None]:
        """qf_parse_get_fields + qf_parse_match: whether `fmt` matches."""
        if self.multiscan and (not fmt.prefix or fmt.prefix not in "OPQ"):
            return False, None
        f.namebuf = f.module = f.pattern = ""
        if not self.multiscan:
            f.errmsg = ""
        f.lnum = f.end_lnum = f.col = f.end_col = 0
        f.use_viscol = False
        f.enr = -1
        f.type = ""
        m = fmt.regex.search(linebuf, timeout=self.timeout)
        if m is None:
            return False, None
        idx = fmt.prefix
        if idx in ("C", "Z") and not self.multiline:
            return False, None
        f.type = idx if idx and idx in "EWIN" else ""
        tail: str | None = None
        for conv, group in fmt.groups:
            # a conversion written inside a collection (`%[a%l]`) made no
            # group: Vim finds no match for it and the format fails
            start = m.start(group) if group <= fmt.regex.groups else -1
            if start < 0:
                return False, None
            text = m.group(group) or ""
            if conv == "f":
                name = expand_env(text, self.env, self.home)
                if idx and idx in "OPQ" and not self.exists(name):
                    return False, None
                f.namebuf = name
            elif conv == "n":
                f.enr = int32(atol(linebuf, start))
            elif conv == "l":
                f.lnum = atol(linebuf, start)
            elif conv == "e":
                f.end_lnum = atol(linebuf, start)
            elif conv == "c":
                f.col = int32(atol(linebuf, start))
            elif conv == "k":
                f.end_col = int32(atol(linebuf, start))
            elif conv == "t":
                f.type = type_char(text)
            elif conv == "m":
                if not (fmt.flags == "+" and not self.multiscan):
                    f.errmsg = text
            elif conv == "r":
                tail = linebuf[start:]
            elif conv == "p":
                col = 0
                for ch in text:
                    col += 1
                    if ch == "\t":
                        col += 7
                        col -= col % 8
                f.col = col + 1
                f.use_viscol = True
            elif conv == "v":
                f.col = int32(atol(linebuf, start))
                f.use_viscol = True
            elif conv == "s":
                f.pattern = "^\\V" + text + "\\$"
            elif conv == "o":
                f.module = text
        if fmt.flags == "+" and not self.multiscan:
            f.errmsg = linebuf
        return True, tail

    # -- prefixes -----------------------------------------------------------------
    def _dir_prefix(self, idx: str, f: _Fields) -> bool:
        if idx == "D":
            if not f.namebuf:
                return False
            self.directory = self.dir_stack.push(f.namebuf, self.isdir, is_file_stack=False)
            return self.directory is not None
        self.directory = self.dir_stack.pop()
        return True

    def _file_prefix(self, idx: str, f: _Fields, tail: str | None) -> bool:
        """qf_parse_file_pfx; True when the rest of the line is to be read again."""
        f.valid = False
        if not f.namebuf or self.exists(f.namebuf):
            if f.namebuf and idx == "P":
                self.currfile = self.file_stack.push(f.namebuf, self.isdir, is_file_stack=True)
            elif idx == "Q":
                self.currfile = self.file_stack.pop()
            f.namebuf = ""
            if tail:
                return True
        return False

    def _multiline_prefix(self, idx: str, f: _Fields) -> None:
        if not self.multiignore:
            prev = self.last
            if prev is None:
                self.aborted = f"line {self.lines}: a %C/%Z line with no entry to continue"
                return
            if f.errmsg:
                prev.text = f"{prev.text}\n{f.errmsg}"
            if prev.nr == -1:
                prev.nr = f.enr
            if printable(f.type) and not prev.type:
                prev.type = f.type
            if not prev.lnum:
                prev.lnum = f.lnum
            if not prev.end_lnum:
                prev.end_lnum = f.end_lnum
            if not prev.col:
                prev.col = f.col
                prev.vcol = f.use_viscol
            if not prev.end_col:
                prev.end_col = f.end_col
            if not prev.file:
                prev.file = self._fnum(self._entry_name(f))
        if idx == "Z":
            self.multiline = self.multiignore = False

    # -- qf_add_entry ---------------------------------------------------------------
    def _entry_name(self, f: _Fields) -> str | None:
        if f.namebuf or self.directory is not None:
            return f.namebuf
        return self.currfile if self.currfile is not None and f.valid else None

    def _add(self, f: _Fields, prefix: str) -> QuickfixEntry:
        typ = f.type if f.type == "\x01" or printable(f.type) else ""
        return QuickfixEntry(
            file=self._fnum(self._entry_name(f)),
            module=f.module,
            lnum=f.lnum,
            end_lnum=f.end_lnum,
            col=f.col,
            end_col=f.end_col,
            vcol=f.use_viscol,
            pattern=f.pattern,
            nr=f.enr,
            type=typ,
            text=f.errmsg,
            valid=f.valid,
            line_no=self.lines,
            prefix=prefix,
            source=self.line,
        )

    def _fnum(self, fname: str | None) -> str:
        """qf_get_fnum: the buffer name for `fname` under the directory stack."""
        if not fname:
            return ""
        directory = self.directory
        if directory is not None and not is_abs_name(fname):
            full = concat_fnames(directory, fname)
            if not self.exists(full):
                guessed = self.dir_stack.guess_filepath(fname, self.exists)
                full = concat_fnames(guessed, fname) if guessed is not None else fname
            return full
        return fname


class QuickfixRefused(ValueError):
    """Vim would refuse the whole list (its cgetexpr fails); the message says why."""


def parse_lines(
    formats: Sequence[Format], lines: Sequence[str], **options: object
) -> list[QuickfixEntry]:
    """Every entry of `lines`, as Vim's `:cgetexpr lines` makes them;
    QuickfixRefused where Vim's would fail."""
    parser = QuickfixParser(formats, **options)  # type: ignore[arg-type]
    out: list[QuickfixEntry] = []
    for line in lines:
        out.extend(parser.feed(line))
    out.extend(parser.close())
    if parser.aborted:
        raise QuickfixRefused(parser.aborted)
    return out
