"""The word walk's prefilter (`_TRIGGER`) skips only text the walk would
leave as it is: on any one command line, the spans found with it equal the
spans of reading every word.  A secret in a multi-line text is found on its
own line, and a command continued by a backslash is read as one line."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from faultlens.classifier import redact

# Words a command line is made of: the forms the walk acts on, their near
# misses, and ordinary output words.
_WORDS = [
    "mysql", "/usr/bin/mysql", "mariadb-dump", "sshpass", "codecov", "docker", "podman",
    "login", "registry", "htpasswd", "-b", "-nb", "-p", "-pX", "-p=", "-t", "-u", "-U",
    "-H", "--header", "--user", "--proxy-user", "Authorization:", "proxy-authorization:",
    "Bearer", "basic", "token", "--password", "--db-password=", "--api-key", "--token=",
    "--passphrase", "API_TOKEN=", "db_pass=", "auth=", "key=", "secretkey_id=", "user:",
    "root", "admin:", "hunter2x", "s3cr3tvalue", "TOKEN", "<pw>", "${SECRET}", "…",
    "pytest", "-v", "-k", "keyword", "passed", "tokens", "key", "--keep", "-type", "monkey",
    "make", "build", "src/a.c:3:", "error:", "'", '"', "(", ")", "`", ",", ";", ".",
]  # fmt: skip
_word = st.builds(
    lambda parts: "".join(parts), st.lists(st.sampled_from(_WORDS), min_size=1, max_size=3)
)
_line = st.lists(_word, min_size=1, max_size=12).map(" ".join)


@settings(max_examples=600, deadline=None, derandomize=True)  # the same draw each run
@given(_line)
@example("-H Bearer mysql")  # found here: a header option, but no hint word in the line
def test_the_prefilter_changes_no_span_of_a_command_line(line: str) -> None:
    assert redact._command_words(line) == redact._walk_words(line)


@pytest.mark.parametrize(
    "text",
    [
        "building\nrun: mysql -u root -p hunter2x db\nok",
        "step 1\ncurl -H Authorization: Bearer abcdef123456 https://x\nstep 2",
        "docker login \\\n  -p hunter2x registry.example\ndone",
        "curl\n-H Bearer abcdef123456 https://x",  # found by the property test: no hint but -H
    ],
)
def test_a_secret_on_one_line_of_many_is_masked(text: str) -> None:
    out = redact.redact(text)
    assert "hunter2x" not in out and "abcdef123456" not in out
    assert out.splitlines()[0] == text.splitlines()[0]


def test_a_program_on_one_line_does_not_make_the_next_line_s_option_a_secret() -> None:
    text = "mysql --version\npytest -p no:cacheprovider"
    assert redact.redact(text) == text
