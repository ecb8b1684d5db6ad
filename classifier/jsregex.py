"""A VS Code matcher's `regexp` (JavaScript syntax) as a `regex` pattern."""

from __future__ import annotations

import regex

from .matcher_model import (
    MatcherError,
)


# -- JavaScript regexps ------------------------------------------------------------
def js_regex(text: str) -> regex.Pattern[str]:
    """A VS Code `regexp` (JavaScript syntax, no flags) for the `regex` module."""
    if not isinstance(text, str) or not text:
        raise MatcherError("`regexp` must be a non-empty string")
    out: list[str] = []
    i = 0
    in_class = False
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            n = text[i + 1]
            if n == "k" and text.startswith("<", i + 2):
                close = text.find(">", i + 3)
                if close > 0:
                    out.append(f"(?P={text[i + 3 : close]})")
                    i = close + 1
                    continue
            out.append(text[i : i + 2])
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
            out.append(c)
            i += 1
            continue
        if c == "[":
            if text.startswith("[^]", i):
                out.append("(?s:.)")
                i += 3
                continue
            if text.startswith("[]", i):
                out.append("(?!)")
                i += 2
                continue
            in_class = True
            out.append(c)
            i += 1
            continue
        if text.startswith("(?<", i) and not text.startswith(("(?<=", "(?<!"), i):
            out.append("(?P<")
            i += 3
            continue
        out.append(c)
        i += 1
    try:
        return regex.compile("".join(out), regex.V0 | regex.ASCII)
    except regex.error as exc:
        raise MatcherError(f"`regexp` {text!r} is not a valid regular expression: {exc}") from None
    except (OverflowError, RecursionError):
        raise MatcherError(f"`regexp` {text!r} is too large") from None
