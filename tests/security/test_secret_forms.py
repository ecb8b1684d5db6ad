"""Every common secret form is masked, by `redact` (text) and `redact_argv`
(command lines), and ordinary values are not: a generated corpus
(tests/security/secret_corpus.py), the maintained detector set read from the
installed detect-secrets, and the false positives that once broke a re-run."""

from __future__ import annotations

import base64
import uuid

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from faultlens.classifier import detectors
from faultlens.classifier.redact import masked_secret, redact, redact_argv, shown_command

from .secret_corpus import ARGV_FORMS, FORMS, fragments

QUICK = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("form", sorted(FORMS))
@QUICK
@given(data=st.data())
def test_every_common_form_is_masked_in_text(form, data):
    sample = data.draw(FORMS[form])
    out = redact(sample.text)
    for frag in fragments(sample):
        assert frag not in out, f"{form}: {out!r}"


@pytest.mark.parametrize("form", sorted(ARGV_FORMS))
@QUICK
@given(data=st.data())
def test_every_secret_on_a_command_line_is_masked(form, data):
    sample = data.draw(ARGV_FORMS[form])
    shown = redact_argv(sample.argv)
    assert len(shown) == len(sample.argv)  # element by element: still an argv
    for arg in shown:
        assert sample.secret not in arg, f"{form}: {shown!r}"
    assert sample.secret not in shown_command(sample.argv)
    assert masked_secret(shown) is not None  # a stored copy is known not to be runnable
    assert masked_secret(sample.argv) is None


@pytest.mark.parametrize(
    "command",
    [
        "curl -H Authorization: Bearer {v} https://api.example.com",
        "curl --header Proxy-Authorization: Basic {v} https://api.example.com",
        "curl -H authorization: {v} https://api.example.com",
        "curl -H Bearer {v} https://api.example.com",
    ],
)
def test_an_authorization_header_split_into_words_is_masked(command):
    """A command given as a string (an LSP client's `command`, a hook's) is
    split on spaces: the header's name, its scheme and the credentials are
    then separate elements, and credentials that no detector knows by their
    shape alone (random letters and digits) were stored and shown raw."""
    value = "A16Nvbikds1dnKYmpRaL6yKnZBDlvgX8"  # leaked before: no token shape of its own
    argv = command.format(v=value).split()
    shown = redact_argv(argv)
    assert value not in " ".join(shown) and len(shown) == len(argv)
    assert masked_secret(shown) is not None


def test_a_command_without_secrets_is_kept_as_it_is():
    argv = ["pytest", "-x", "tests/test_api.py::test_login[https://example.com/a@b]", "-k", "pw"]
    assert redact_argv(argv) == argv
    assert masked_secret(redact_argv(argv)) is None
    assert redact_argv(["echo", "Bearer", "of", "news"]) == ["echo", "Bearer", "of", "news"]
    assert redact_argv(["mysql", "-h", "token", "app"]) == ["mysql", "-h", "token", "app"]
    assert redact_argv(["curl", "-H", "Authorization:", "Bearer", "$TOKEN"])[-1] == "$TOKEN"
    assert redact_argv(["env", "TOKEN_FILE=/run/secrets/t", "PASSWORD=$DB_PASSWORD", "make"]) == [
        "env",
        "TOKEN_FILE=/run/secrets/t",
        "PASSWORD=$DB_PASSWORD",
        "make",
    ]


ORDINARY = [
    "tests/test_api.py::TestLogin::test_redirect[https://example.com/callback@v2]",
    "commit 3f2a9c1e8b7d6f5a4e3c2b1a0f9e8d7c6b5a4f3e",
    f"request id {uuid.uuid4()}",
    "sha256:" + "ab12" * 16,
    "data: " + base64.b64encode(b"ordinary data, nothing secret, printed by a test").decode(),
    "TASK-007 Basic authentication failed for user ci",
    "ACCESS DENIED for APPLICATION STACK TRACEBACK",
    "npm ERR! 404 https://registry.npmjs.org/@scope%2fpkg",
    "GET http://localhost:8080/api@v2 502",
    "see https://user@example.com/docs",
    "TOKENIZERS_PARALLELISM=false python train.py",
    "max_tokens: 4096, token: 1234",
    "SKIPPED [3] tests/test_x.py: requires network",
    "password: ********",
    "secret=${DEPLOY_SECRET}",
    "Authorization: Bearer ${TOKEN}",
    "password: %DB_PASSWORD%",
    "token = {{ secrets.DEPLOY_TOKEN }}",
]


def test_a_value_that_only_starts_like_a_reference_is_masked():
    """(Found by the property test: `%` began a "placeholder".)"""
    assert redact("fatal: DATABASE_PASSWORD=%0000000000A is not valid") == (
        "fatal: DATABASE_PASSWORD=…(12 chars) is not valid"
    )


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_values_are_not_masked(text):
    assert redact(text) == text


def test_the_maintained_detector_set_is_read_from_the_installed_package():
    found = detectors.maintained()
    assert found.source.startswith("detect-secrets ")
    kinds = {d.name for d in found.detectors}
    # a few of its plugins that our own forms do not have
    assert {"Mailchimp Access Key", "Square OAuth Secret", "Artifactory Credentials"} <= kinds
    assert all(d.literals for d in found.detectors)  # every one has a prefilter
    assert "Public IP (ipv4)" not in kinds


def test_a_new_plugin_is_picked_up_as_data_without_running_it():
    source = """
import re
from .base import RegexBasedDetector
raise SystemExit("never run")
class AcmeDetector(RegexBasedDetector):
    secret_type = "Acme Key"
    denylist = [re.compile(r"acme_[a-z0-9]{24}", flags=re.IGNORECASE), build(x)]
class NotADetector:
    denylist = [re.compile(r"x")]
"""
    assert detectors.plugin_patterns(source) == [("Acme Key", r"acme_[a-z0-9]{24}", 2)]


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"(?:A3T[A-Z0-9]|ABIA|AKIA)[0-9A-Z]{16}", ("A3T", "ABIA", "AKIA")),
        (r"(ghp|gho)_[A-Za-z0-9_]{36}", ("gho_", "ghp_")),
        (r"[0-9a-z]{32}-us[0-9]{1,2}", tuple(f"-us{d}" for d in range(10))),
        (r"\d{8,10}:[0-9A-Za-z_-]{35}", ()),
    ],
)
def test_the_prefilter_literal_of_a_pattern(pattern, expected):
    import re

    assert detectors.required_literals(re.compile(pattern)) == expected


@QUICK
@given(text=st.text(max_size=200), data=st.data())
def test_a_form_is_masked_whatever_text_surrounds_it(text, data):
    form = data.draw(st.sampled_from(sorted(FORMS)))
    sample = data.draw(FORMS[form])
    assume(all(frag not in text for frag in fragments(sample)))
    out = redact(f"{text} {sample.text} {text}")
    for frag in fragments(sample):
        assert frag not in out, f"{form}: {out!r}"


# The captured samples that print a secret on purpose (scanner findings, a
# failing test asserting on a key), and how many of their lines hold one.
SECRET_SAMPLES = {
    "mixed/ci-run/output.txt": 3,
    # unjs/ufo's normalizeURL tests are named by fixture URLs `http://userid:password@...`
    "projects/vitest-ufo-removed-import/output.txt": 6,
    # flake8-bandit's S105 names the hard-coded password it found
    "py_lint/flake8-bandit/output.txt": 1,
    # gosec's code excerpt shows the G101 hard-coded credential
    "sast/gosec/output.txt": 1,
    "security/bandit-hardcoded-password/output.txt": 2,
    "security/gitleaks-dir-verbose/output.txt": 2,
    "security/trufflehog-filesystem/output.txt": 1,
}


def test_no_line_of_real_tool_output_is_masked_unless_it_holds_a_secret():
    """False positives on thousands of lines of captured output (every
    family's samples): only the lines that print a secret change."""
    from .conftest import SAMPLES

    changed: dict[str, int] = {}
    lines = 0
    for path in sorted(SAMPLES.rglob("output*")):
        if not path.is_file():
            continue
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            lines += 1
            if redact(line) != line:
                key = path.relative_to(SAMPLES).as_posix()
                changed[key] = changed.get(key, 0) + 1
    assert lines > 3000
    assert changed == SECRET_SAMPLES


@QUICK
@given(data=st.data(), cuts=st.lists(st.integers(min_value=1, max_value=4000), max_size=8))
def test_the_log_redactor_masks_every_form_at_any_chunking(data, cuts):
    from faultlens.classifier.logredact import LogRedactor

    form = data.draw(st.sampled_from(sorted(FORMS)))
    sample = data.draw(FORMS[form])
    raw = f"noise before\r\n{sample.text}\nnoise after without a newline".encode()
    scrub = LogRedactor(hold=data.draw(st.integers(min_value=0, max_value=3)))
    out, pos = [], 0
    for cut in sorted(cuts):
        out.append(scrub.feed(raw[pos:cut]))
        pos = max(pos, cut)
    out.append(scrub.feed(raw[pos:]))
    out.append(scrub.close())
    text = b"".join(out)
    assert text.count(b"\n") == raw.count(b"\n")  # line numbers are kept
    assert text.startswith(b"noise before\r\n") and text.endswith(b"without a newline")
    for frag in fragments(sample):
        assert frag.encode() not in text, f"{form}: {text!r}"


def test_a_secret_named_after_its_line_was_written_is_masked_in_the_written_log(tmp_path):
    """The vault grows while the log is written: lines still held back are
    masked when they go out; lines already written are masked afterwards."""
    from faultlens.classifier.logredact import LogRedactor, scrub_file

    secret = "qmzvtrwlkhxbnsdpjfgy"  # no known shape: only a scanner can name it
    vault: set[str] = set()
    scrub = LogRedactor(vault, hold=2)
    log = tmp_path / "run.log"
    with open(log, "wb") as out:
        out.write(scrub.feed(f"early: {secret}\n".encode()))
        for _ in range(5):
            out.write(scrub.feed(b"filler\n"))  # "early" goes out meanwhile
        assert out.tell() > 0  # lines went out before the secret was named
        out.write(scrub.feed(f"near: {secret[:10]}...\n".encode()))  # held back, a head
        vault.add(secret)  # a scanner names it now
        out.write(scrub.feed(b"Raw result: " + secret.encode() + b"\n"))
        out.write(scrub.close())
    assert scrub.late == {secret}
    scrub_file(log, scrub.late)
    text = log.read_text()
    assert secret not in text and secret[:10] not in text
    assert text.count("\n") == 8 and "filler" in text
