"""Secret forms the second probe found unmasked (issue 27, item 4): a
password or token given as a short option's separate word (`docker login -p
X`, `sshpass -p X`, `mysql -p X`, `codecov -t X`), htpasswd's batch-mode
password (`htpasswd -b FILE USER PW`), in a stored command; and `--password
X` as separate words in output text.  The values are random plain words:
only their place says they are secret.  The same options of other programs
(`docker build -t image:tag`, `ssh -p 22`) are left alone, so their commands
can still be re-run.
"""

from __future__ import annotations

import json
import secrets
import string
from pathlib import Path

import pytest


def _word() -> str:
    return "".join(secrets.choice(string.ascii_lowercase) for _ in range(12)) + "7Q"


FORMS = {
    "docker login -p": lambda v: ["docker", "login", "-u", "ci", "-p", v, "registry.example.com"],
    "podman login -p glued": lambda v: ["podman", "login", "-u", "ci", f"-p{v}", "quay.io"],
    "sshpass -p": lambda v: ["sshpass", "-p", v, "ssh", "deploy@example.com"],
    "sshpass -pX": lambda v: ["sshpass", f"-p{v}", "scp", "a", "h:b"],
    "mysql -p separate": lambda v: ["mysql", "-u", "root", "-p", v, "app"],
    "codecov -t": lambda v: ["codecov", "-t", v, "-f", "coverage.xml"],
    "htpasswd -b": lambda v: ["htpasswd", "-b", ".htpasswd", "admin", v],
    "htpasswd -cb": lambda v: ["htpasswd", "-cbB", ".htpasswd", "admin", v],
    "htpasswd -nb": lambda v: ["htpasswd", "-nb", "admin", v],
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_short_option_secret_is_masked_in_a_stored_command(tmp_path: Path, form: str):
    from faultlens.classifier.redact import masked_secret, redact_argv
    from faultlens.recipes import Ledger, Workspace

    secret = _word()
    argv = FORMS[form](secret)
    shown = redact_argv(argv)
    assert secret not in json.dumps(shown)
    assert masked_secret(shown) is not None  # so it is never run again from the ledger
    (tmp_path / ".git").mkdir()
    ledger = Ledger.open(Workspace(roots=[tmp_path], state_dir=tmp_path / ".faultlens"))
    run_id = ledger.start_run("T", argv, str(tmp_path))
    ledger.finish_run(run_id, 1, [])
    row = ledger.last_run("T")
    assert row is not None and secret not in json.dumps(row.argv)
    for p in (tmp_path / ".faultlens").iterdir():
        if p.is_file():
            assert secret.encode() not in p.read_bytes(), p


@pytest.mark.parametrize(
    "argv",
    [
        ["docker", "build", "-t", "registry.example.com/app:1.2.3", "."],
        ["ssh", "-p", "2222", "deploy@example.com"],
        ["pytest", "-p", "no:cacheprovider", "tests"],
        ["htpasswd", "-v", ".htpasswd", "admin"],
        ["docker", "run", "-p", "8080:80", "nginx:1.25"],
    ],
)
def test_the_same_short_options_of_other_programs_are_kept(argv):
    from faultlens.classifier.redact import masked_secret, redact_argv

    assert redact_argv(argv) == argv
    assert masked_secret(redact_argv(argv)) is None


@pytest.mark.parametrize(
    "line",
    [
        "+ psql --host db --password {v} -c 'select 1'",
        "error: login failed for `deploy --password {v}`",
        "Running: mysql -u root -p {v} app",
        "$ sshpass -p {v} ssh deploy@example.com",
    ],
)
def test_a_password_given_as_separate_words_in_output_is_masked(line):
    from faultlens.classifier.redact import redact

    secret = _word()
    text = line.format(v=secret)
    assert secret not in redact(text)
    assert redact(redact(text)) == redact(text)


@pytest.mark.parametrize(
    "line",
    [
        "usage: deploy [--password PASSWORD] [--token <token>]",
        "  --password-file FILE   read the password from FILE",
        "warning: --token none given, using anonymous access",
    ],
)
def test_a_usage_text_s_placeholders_are_kept(line):
    from faultlens.classifier.redact import redact

    assert redact(line) == line


def test_a_password_in_output_is_masked_in_the_records_too():
    from faultlens.classifier.engine import Options, classify_text

    secret = _word()
    out = (
        f"+ psql --host db --password {secret} -f migrate.sql\n"
        'psql: error: connection to server at "db" (10.0.0.5), port 5432 failed: '
        'FATAL:  password authentication failed for user "app"\n'
    )
    records = classify_text(out, Options(command=["make", "migrate"], exit_code=2))
    assert secret not in json.dumps([r.to_json() for r in records])
