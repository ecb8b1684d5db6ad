"""The rules' fast paths find exactly what the plain regexes they stand in
for find.

Some rules skip a costly regex where a cheaper test shows it cannot match
(classifier/rules/mcp/common.py: the script-name regex is tried only on the
words that end with a script extension, the host:port regex only on the
lines holding a port after an address).  These tests compare each fast path
with the plain regex on generated text made of the characters that matter.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from faultlens.classifier.rules.mcp import common

# The plain forms the fast paths replace.
_PLAIN_SCRIPT = re.compile(r"[\w.~/\\-]*?([\w.-]+\.(?:py|js|mjs|cjs|ts))\b")
_PLAIN_PORT = re.compile(r"(?:\.\d{1,3}|localhost|\]):\d\d")

# Text built from the pieces the regexes care about (word characters, path
# separators, extensions near misses included, addresses, ports, newlines).
_PIECES = st.sampled_from(
    [
        "a",
        "Z9",
        "_",
        "é",
        ".",
        "-",
        "~",
        "/",
        "\\",
        " ",
        ":",
        "(",
        "\n",
        ".py",
        ".js",
        ".mjs",
        ".cjs",
        ".ts",
        ".tsx",
        ".pyc",
        ".json",
        "server",
        "127.0.0.1",
        "10.2",
        "localhost",
        "[::1]",
        "]",
        ":8765",
        ":80",
        ":5",
        "12:34:56",
    ]
)
_TEXT = st.lists(_PIECES, max_size=40).map("".join)


def _plain_lines(text: str) -> set[int]:
    return {text.count("\n", 0, m.start()) for m in _PLAIN_PORT.finditer(text)}


@settings(max_examples=500, deadline=None)
@given(line=_TEXT.map(lambda t: t.replace("\n", " ")))
def test_script_names_are_those_of_the_plain_regex(line: str) -> None:
    expected = tuple(m.group(1) for m in _PLAIN_SCRIPT.finditer(line))
    assert common._find_scripts(line) == expected


@settings(max_examples=500, deadline=None)
@given(text=_TEXT)
def test_lines_with_a_port_are_those_of_the_plain_regex(text: str) -> None:
    assert common._lines_with(text, common._PORT, common._ADDRESS_END) == _plain_lines(text)


def test_a_test_file_name_is_not_a_script_but_a_server_path_is() -> None:
    assert common._find_scripts("PASS src/components/Query.test.tsx (1.8 s)") == ()
    assert common._find_scripts("spawn node /srv/mcp/server.js failed") == ("server.js",)
