"""A generated corpus of secrets in every common form, each in the context
where tools print it (hypothesis strategies, so each run draws new values).

`FORMS` maps a form's name to a strategy of `Sample(text, secret)`: `text`
is an output line holding the secret, `secret` what must never be written
or shown.  `ARGV_FORMS` does the same for command lines (`Sample.argv`).
Nothing here is a real credential: the values are random, assembled at run
time (no file holds a credential-shaped string a scanner would flag).
"""

from __future__ import annotations

import base64
import json
import string
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field

from hypothesis import strategies as st

UPPER = string.ascii_uppercase + string.digits
ALNUM = string.ascii_letters + string.digits
LOWER_HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"


@dataclass(frozen=True)
class Sample:
    text: str
    secret: str
    argv: tuple[str, ...] = field(default=())


def _s(alphabet: str, n: int, m: int | None = None) -> st.SearchStrategy[str]:
    return st.text(alphabet, min_size=n, max_size=m or n)


def _mixed(n: int, m: int | None = None, alphabet: str = ALNUM) -> st.SearchStrategy[str]:
    """A value with a digit and a letter, as real keys and passwords have."""
    return _s(alphabet, n, m).filter(
        lambda v: any(c.isdigit() for c in v) and any(c.isalpha() for c in v)
    )


def _password(n: int, m: int | None = None, alphabet: str = ALNUM) -> st.SearchStrategy[str]:
    """A password given on a command line: upper and lower case and a digit.
    (A plain word or a lower-case hex run could be part of a state file's own
    name — `ledger`, a run log's hash — and hypothesis draws the test modules'
    own string constants, so a leak check on file names would see it.)"""
    return _s(alphabet, n, m).filter(
        lambda v: (
            any(c.isdigit() for c in v)
            and any(c.isupper() for c in v)
            and any(c.islower() for c in v)
        )
    )


def _join(*parts: str) -> str:
    return "".join(parts)


def _b64url(data: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


def _in(template: str) -> Callable[[str], Sample]:
    """A builder: the secret put into an output line."""
    return lambda secret: Sample(template.format(s=secret), secret)


def _jwt(sig: str) -> str:
    return ".".join(
        [_b64url({"alg": "HS256", "typ": "JWT"}), _b64url({"sub": "ci", "iat": 1700000000}), sig]
    )


def _key_block(body: bytes) -> Sample:
    b64 = base64.b64encode(body).decode()
    block = "\n".join(
        [
            "-----BEGIN RSA PRIVATE " + "KEY-----",
            *textwrap.wrap(b64, 64),
            "-----END RSA PRIVATE " + "KEY-----",
        ]
    )
    return Sample(f"Error: could not parse key:\n{block}", textwrap.wrap(b64, 64)[0])


FORMS: dict[str, st.SearchStrategy[Sample]] = {
    "aws key id": _s(UPPER, 16).map(lambda v: _join("AK", "IA", v)).map(_in("KeyError: '{s}'")),
    "github token": _s(ALNUM, 36)
    .map(lambda v: _join("gh", "p_", v))
    .map(_in("src/a.ts(3,1): error TS2304: Cannot find name '{s}'.")),
    "github fine-grained": _s(ALNUM + "_", 82)
    .map(lambda v: _join("github", "_pat_", v))
    .map(_in("npm ERR! 401 Unauthorized - token {s}")),
    "slack token": st.tuples(_s(string.digits, 12), _s(ALNUM, 24))
    .map(lambda t: _join("xo", "xb-", t[0], "-", t[1]))
    .map(_in("FAILED tests/test_api.py::test_token - assert '{s}' == ''")),
    "jwt": _s(URLSAFE, 43).map(_jwt).map(_in("E   AssertionError: bad token {s}")),
    "private key": st.binary(min_size=200, max_size=400).map(_key_block),
    "url password": _mixed(12, 20).map(
        _in("error: failed to push to https://ci:{s}@git.example.com/x.git")
    ),
    "url password with / and @": st.tuples(_mixed(4, 8), _mixed(4, 8), _mixed(3, 6))
    .map(lambda t: f"{t[0]}/{t[1]}@{t[2]}")
    .map(_in("psycopg.OperationalError: postgres://app:{s}@db.example.com:5432/app refused")),
    "token as url user": _s(LOWER_HEX, 40)
    .filter(lambda v: any(c.isalpha() for c in v) and any(c.isdigit() for c in v))
    .map(_in("fatal: unable to access 'https://{s}@github.com/acme/app.git/': 403")),
    "password assignment": _mixed(12, 24, ALNUM + "!#%").map(
        _in("fatal: DATABASE_PASSWORD={s} is not valid")
    ),
    "azure account key": _s(B64, 86)
    .map(lambda v: v + "==")
    .map(
        _in(
            "ValueError: DefaultEndpointsProtocol=https;AccountName=acme;"
            "Account" + "Key={s};EndpointSuffix=core.windows.net"
        )
    ),
    "azure sas signature": _mixed(43, 43, B64)
    .map(lambda v: v.replace("+", "%2B") + "%3D")
    .map(_in("403 for https://acme.blob.core.windows.net/c/a.txt?sv=2022-11-02&sp=r&si" + "g={s}")),
    "gcp private_key_id": _s(LOWER_HEX, 40)
    .filter(lambda v: any(c.isalpha() for c in v))
    .map(_in('google.auth.exceptions: {{"type": "service_account", "private_key_id": "{s}"}}')),
    "stripe test key": _s(ALNUM, 24)
    .map(lambda v: _join("sk", "_test_", v))
    .map(_in("stripe.error.AuthenticationError: Invalid API Key provided: {s}")),
    "npm token": _mixed(36)
    .map(lambda v: _join("np", "m_", v))
    .map(_in("npm ERR! code E401 (token {s} expired)")),
    "pypi token": _s(URLSAFE, 80, 120)
    .map(lambda v: _join("pypi-", "AgEIcHlwaS5vcmc", v))
    .map(_in("HTTPError: 403 Forbidden (password {s} invalid)")),
    "slack webhook": st.tuples(_s(UPPER, 8), _s(UPPER, 10), _mixed(24))
    .map(lambda t: f"T{t[0]}/B{t[1]}/{t[2]}")
    .map(
        _in("requests.exceptions.HTTPError: 404 for url: https://hooks.slack." + "com/services/{s}")
    ),
    "authorization bearer": _mixed(32, 48, URLSAFE + ".").map(_in("> Authorization: Bearer {s}")),
    "authorization basic": st.tuples(_mixed(6, 10), _mixed(10, 16))
    .map(lambda t: base64.b64encode(f"{t[0]}:{t[1]}".encode()).decode())
    .map(_in("> Authorization: Basic {s}")),
    "sendgrid key": st.tuples(_s(URLSAFE, 22), _s(URLSAFE, 43))
    .map(lambda t: _join("SG", ".", t[0], ".", t[1]))
    .map(_in("python_http_client.exceptions.UnauthorizedError: key {s}")),
    "mysql -p": _mixed(10, 16).map(_in("+ mysql -u root -p{s} -h db app < schema.sql")),
    "twilio api key": _s(LOWER_HEX, 32)
    .filter(lambda v: any(c.isalpha() for c in v))
    .map(lambda v: _join("S", "K", v))
    .map(_in("twilio.base.exceptions.TwilioRestException: 401 key {s}")),
    "anthropic key": _s(URLSAFE, 40)
    .map(lambda v: _join("sk-", "ant-", v))
    .map(_in("anthropic.AuthenticationError: invalid x-api-key {s}")),
}


ARGV_FORMS: dict[str, st.SearchStrategy[Sample]] = {
    "env assignment": _password(8, 24).map(
        lambda v: Sample(f"API_TOKEN={v}", v, ("env", f"API_TOKEN={v}", "make", "deploy"))
    ),
    "env url password": _password(3, 12).map(
        lambda v: Sample(
            v, v, ("env", f"DATABASE_URL=postgres://u:{v}@h/db", "python", "-m", "app")
        )
    ),
    "curl bearer header": _password(16, 40, URLSAFE).map(
        lambda v: Sample(
            v, v, ("curl", "-fsS", "-H", f"Authorization: Bearer {v}", "https://api.example.com")
        )
    ),
    "curl user password": _password(6, 16).map(
        lambda v: Sample(v, v, ("curl", "--user", f"deploy:{v}", "https://api.example.com"))
    ),
    "password option": _password(6, 16).map(
        lambda v: Sample(v, v, ("psql", "--host", "db", "--password", v))
    ),
    "token option with =": _password(6, 16).map(
        lambda v: Sample(v, v, ("./deploy.sh", f"--token={v}", "--verbose"))
    ),
    "mysql -p": _password(6, 16).map(
        lambda v: Sample(v, v, ("mysql", "-u", "root", f"-p{v}", "app"))
    ),
    "docker login -p": _password(6, 16).map(
        lambda v: Sample(v, v, ("docker", "login", "-u", "ci", "-p", v, "registry.example.com"))
    ),
    "sshpass -p": _password(6, 16).map(lambda v: Sample(v, v, ("sshpass", "-p", v, "ssh", "h"))),
    "mysql -p separate": _password(6, 16).map(
        lambda v: Sample(v, v, ("mysql", "-u", "root", "-p", v, "app"))
    ),
    "codecov -t": _password(8, 36).map(lambda v: Sample(v, v, ("codecov", "-t", v))),
    "htpasswd -b": _password(6, 16).map(
        lambda v: Sample(v, v, ("htpasswd", "-b", ".htpasswd", "admin", v))
    ),
    "define": _password(6, 16).map(
        lambda v: Sample(v, v, ("cmake", f"-DDB_PASSWORD={v}", "-S", ".", "-B", "build"))
    ),
}


def fragments(sample: Sample) -> list[str]:
    """What must never appear: the secret, and its last 12 characters."""
    s = sample.secret
    return [s] if len(s) < 16 else [s, s[-12:]]
