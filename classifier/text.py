"""Turning raw output bytes into clean text lines.

Tools write colour codes, CRLF line ends, progress bars redrawn with a bare
carriage return, invalid UTF-8 and the odd NUL byte.  None of that may stop
classification, and none of it may reach a record.
"""

from __future__ import annotations

from .lazyre import lazy_compile

# CSI sequences (colours, cursor moves), the string sequences (OSC:
# hyperlinks, titles; APC: Buildkite's `ESC _ bk;t=<ms> BEL` timestamp before
# every line; DCS, PM, SOS), which end at BEL or ST and, unterminated, at the
# line end (never swallowing later lines), every other escape (ESC,
# intermediates, a final byte: `ESC c`, `ESC ( B`, `ESC 7`), and an ESC left
# alone.
_ANSI = lazy_compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b[\]_P^X][^\x07\x1b\n]*(?:\x07|\x1b\\)?"
    r"|\x1b[ -/]*[0-~]?"
    r"|\x9b[0-?]*[ -/]*[@-~]"
)


_ANSI_BYTES = lazy_compile(
    rb"\x1b\[[0-?]*[ -/]*[@-~]"
    rb"|\x1b[\]_P^X][^\x07\x1b\n]*(?:\x07|\x1b\\)?"
    rb"|\x1b[ -/]*[0-~]?"
)


# Escape sequences as some CI log exports store them: ESC written as the two
# characters `^[`: CSI (`^[[31m`, `^[[0K`), OSC (`^[]8;;url` up to BEL or
# `^[\`), a charset (`^[(B`).  Only the shapes of real sequences go, so
# `^[[:space:]]` in a printed regex stays.
_CARET_ESC = lazy_compile(
    rb"\^\[\[[0-9;?]*[A-Za-z]"
    rb"|\^\[\][^\x07\n]*?(?:\x07|\^\[\\)"
    rb"|\^\[[()][0-9A-Za-z]"
)
_CARET_ESC_TEXT = lazy_compile(
    r"\^\[\[[0-9;?]*[A-Za-z]"
    r"|\^\[\][^\x07\n]*?(?:\x07|\^\[\\)"
    r"|\^\[[()][0-9A-Za-z]"
)


# The C1 controls (U+0080-U+009F), UTF-8 encoded: a terminal may take U+009B as
# CSI, like `ESC [`.  A CSI sequence goes whole; any other C1 control alone.
_C1_BYTES = lazy_compile(rb"\xc2\x9b[0-?]*[ -/]*[@-~]?|\xc2[\x80-\x9f]")


def clean_bytes(data: bytes) -> bytes:
    """Drop terminal escape sequences (7-bit and C1), NUL bytes from raw output.

    Works on bytes so that noise never needs decoding; line ends are kept
    (CRLF and bare CRs are handled per line by `decode_line`)."""
    if b"\x1b" in data:
        data = _strip_escapes(data)
    if has_caret_escape(data, 0, len(data)):
        data = _CARET_ESC.sub(b"", data)
    if b"\x00" in data:
        data = data.replace(b"\x00", b"")
    if b"\xc2" in data:
        data = _C1_BYTES.sub(b"", data)
    return data


def _has_c1(data: bytes, start: int, end: int) -> bool:
    """Whether data[start:end] holds a C1 control: a 0xC2 byte followed by
    one in 0x80-0x9F.  Text holds 0xC2 in U+0080-U+00BF (a no-break space, a
    middle dot), so its first few are looked at one by one (memchr), and the
    regex (a byte-by-byte search) reads the rest only where they abound."""
    find = data.find
    at = find(b"\xc2", start, end)
    for _ in range(_C1_PEEKS):
        if at < 0:
            return False
        if at + 1 < end and 0x80 <= data[at + 1] <= 0x9F:
            return True
        at = find(b"\xc2", at + 1, end)
    return at >= 0 and _C1_BYTES.search(data, at, end) is not None


_C1_PEEKS = 16


def has_caret_escape(data: bytes, start: int, end: int) -> bool:
    """Whether data[start:end] holds `^[` (`data.find(b"^[", start, end) >= 0`).

    CPython looks for a two-byte needle byte by byte (~0.7 GB/s, a third of
    a second on 200 MB), for one byte with memchr: so each `^` is found with
    memchr and the byte after it is looked at.  Output dense with `^` (a
    compiler's caret lines) falls back to the plain search past a budget of
    one `^` per 512 bytes."""
    find = data.find
    budget = (end - start) >> 9
    at = find(b"^", start, end)
    while at >= 0:
        if at + 1 < end and data[at + 1] == 0x5B:  # `[`
            return True
        budget -= 1
        if budget < 0:
            return find(b"^[", at + 1, end) >= 0
        at = find(b"^", at + 1, end)
    return False


def clean_joined(head: bytes, data: bytes, start: int, end: int) -> bytes:
    """`clean_bytes(head + data[start:end])` (`data[end - 1]` a line end, `head`
    without one), built with at most one copy: large copies are what the
    feed costs (each fresh page of a new buffer is a page fault), and
    `data` itself comes back when it is all there is."""
    if (
        b"\x1b" in head
        or b"\x00" in head
        or b"\xc2" in head
        or b"^[" in head
        or data.find(b"\x00", start, end) >= 0
        or has_caret_escape(data, start, end)
        or _has_c1(data, start, end)
    ):
        return clean_bytes(head + data[start:end])  # (rare: an escape may span the two)
    view = memoryview(data)
    if data.find(b"\x1b", start, end) < 0:
        if not head and start == 0 and end == len(data):
            return data
        return b"".join((head, view[start:end]))
    # an escape never spans a line end, so none runs past `end`
    return b"".join((head, *_escape_free(data, view, start, end)))


def _strip_escapes(data: bytes) -> bytes:
    """`_ANSI_BYTES.sub(b"", data)`, with the regex tried only where an ESC
    is (memchr) instead of at every byte: every alternative starts with ESC
    and matches at least it, so the matches are the same.  Output dense with
    escapes (a coloured test run) is left to one `sub` pass, faster there."""
    return b"".join(_escape_free(data, memoryview(data), 0, len(data)))


def _escape_free(
    data: bytes, view: memoryview, start: int, end: int
) -> list[bytes] | list[memoryview]:
    """The pieces of data[start:end] between its escape sequences (views,
    not copies), or the whole of it cleaned by one `sub` pass where escapes
    are dense (more than one per 512 bytes)."""
    find, match = data.find, _ANSI_BYTES.match
    out: list[memoryview] = []
    pos = start
    budget = (end - start) >> 9
    esc = find(b"\x1b", start, end)
    while esc >= 0:
        budget -= 1
        if budget < 0:
            return [_ANSI_BYTES.sub(b"", data[start:end])]
        out.append(view[pos:esc])
        m = match(data, esc)
        pos = m.end() if m else esc + 1  # (always a match: `\x1b[ -/]*[0-~]?`)
        esc = find(b"\x1b", pos, end)
    out.append(view[pos:end])
    return out


# CI runners' logs start every line with an ISO-8601 timestamp: GitHub
# Actions' downloaded logs (`2026-12-01T10:00:00.1234567Z `), GitLab's raw job
# logs from runner 17 with FF_TIMESTAMPS and by default since 18.7, whose
# timestamp is followed by 2 hex digits, the stream (O stdout, E stderr) and a
# flag (`+` when the line continues the one before):
# `2026-12-01T10:00:00.123456Z 00O `.
_RUNNER_STAMP = lazy_compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z (?:[0-9a-f]{2}[EO][ +])?")


def decode_line(raw: bytes) -> str:
    """One line of cleaned output as text: UTF-8 with replacement, what a
    terminal finally shows of it when it was redrawn with bare CRs, and
    without a CI runner's timestamp prefix (so anchored rules still match)."""
    line = raw.decode("utf-8", "replace")
    if "\r" in line or _prefixed(line):
        return _unstamped(visible(line))
    return line  # (most lines: nothing to redraw or take off)


# What a container build or run puts before each line of the program it runs:
# BuildKit's plain progress (`#12 3.456 `: the step, the seconds since it
# began) and docker compose's service column (`web-1  | `, `web_1  | ` before
# compose v2).
_CONTAINER_PREFIX = lazy_compile(r"#\d+ \d+\.\d+ |[\w.-]+[-_]\d+ +\| ")


# `gh run view --log-failed` puts the job's and the step's names before each
# line of the runner's log (cli/cli pkg/cmd/run/view: "%s\t%s\t"): taken off
# only when the runner's timestamp follows them.
_GH_LOG_PREFIX = lazy_compile(r"[^\t\n]{1,256}\t[^\t\n]{0,256}\t(?=\d{4}-\d\d-\d\dT\d\d:)")


def _unstamped(line: str) -> str:
    """The line without a CI runner's timestamp prefix (and the job and step
    names `gh run view --log` puts before it) and a container build's or
    service's prefix, nested either way (a GitHub Actions job log read
    through a BuildKit step: `#12 3.456 2026-…Z `), up to three deep (only a
    line `_prefixed` names can lose one)."""
    if "	" in line and line[4:5] != "-":
        names = _GH_LOG_PREFIX.match(line)
        if names:
            line = line[names.end() :]
    for _ in range(3):
        before = line
        if len(line) > 21 and line[4] == "-" and line[10] == "T":
            stamp = _RUNNER_STAMP.match(line)
            if stamp:
                line = line[stamp.end() :]
        if line[:1] == "#" or " | " in line:
            prefix = _CONTAINER_PREFIX.match(line)
            if prefix is not None:
                line = line[prefix.end() :]
        if line is before:
            break
    return line


def unstamp(line: str) -> str:
    """The line without a CI runner's timestamp prefix (GitHub Actions',
    GitLab's, Azure Pipelines'), a container's (as `decode_line` takes them
    off), or Jenkins' timestamper column (`22:44:59  `,
    `[2026-12-01T10:00:00.000Z] `)."""
    if _prefixed(line):
        line = _unstamped(line)
    if line[:1] == "[" or line[2:3] == ":":
        stamp = _JENKINS_STAMP.match(line)
        if stamp:
            return line[stamp.end() :]
    return line


_JENKINS_STAMP = lazy_compile(r"\d\d:\d\d:\d\d  |\[\d{4}-\d\d-\d\dT[\d:.]+Z?\] ")


def _prefixed(line: str) -> bool:
    """Whether `_unstamped` may change the line (a cheap test first): a
    runner's stamp ends in `Z `, BuildKit's step starts the line with `#`,
    and a compose service's column ends in ` | `."""
    return "Z " in line or line[:1] == "#" or " | " in line


def decode_lines(raw: bytes) -> list[str]:
    """`[decode_line(x) for x in raw.split(b"\n")]`, decoded in one go.

    Valid UTF-8 decodes the same whole as line by line (a newline is never
    part of a multi-byte sequence); without a CR no line needs `visible`;
    only a line `_prefixed` names can lose a runner's or a container's
    prefix (ASCII bytes are the same characters in UTF-8), so none can
    when the bytes hold no `Z `, no ` | ` and no `#` at a line's start.
    Anything else takes the line-by-line path, so the result is always the
    same."""
    if b"\r" not in raw:
        try:
            lines = raw.decode("utf-8").split("\n")
        except UnicodeDecodeError:
            pass
        else:
            if b"Z " in raw or b" | " in raw or b"\n#" in raw or raw[:1] == b"#":
                return [_unstamped(line) if _prefixed(line) else line for line in lines]
            return lines
    return [decode_line(x) for x in raw.split(b"\n")]


def decode(data: bytes) -> str:
    """Decode output bytes: UTF-8 with replacement, NULs dropped, CRLF folded."""
    text = data.decode("utf-8", "replace")
    if "\x00" in text:
        text = text.replace("\x00", "")
    if "\x1b" in text or "\x9b" in text:
        text = _ANSI.sub("", text)
    if "^[" in text:
        text = _CARET_ESC_TEXT.sub("", text)
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    return text


def visible(line: str) -> str:
    """What a terminal finally shows of a line redrawn with bare CRs."""
    if "\r" not in line:
        return line
    parts = [p for p in line.split("\r") if p.strip()]
    return parts[-1] if parts else ""
