"""What a Python exception says about its cause.

Shared by the interpreter rule (python/interpreter.py) and the test runners
(python_test.py).  The taxonomy's category of an uncaught exception, the
hint the compile recipe needs from an import or name error (the module,
the name, the PyPI package from a curated list), and :func:`cause_of`:
the cause a failing test's exceptions name, which decides the record's
category over the symptom (a failing test).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import LineContext
from .causes import Cause, address, env_reads, env_variable, infra_env, infra_network, network_kind
from .python_traceback import SYNTAX_ERRORS, Raised

IMPORT_ERRORS = frozenset({"ModuleNotFoundError", "ImportError"})

_NO_MODULE = lazy_compile(r"No module named '(?P<module>[^']+)'")
_CANNOT_IMPORT = lazy_compile(r"cannot import name '(?P<name>[^']+)' from '(?P<module>[^']+)'")
_NAME_NOT_DEFINED = lazy_compile(r"name '(?P<name>[^']+)' is not defined")
_DID_YOU_MEAN = lazy_compile(r"Did you mean:? '(?P<suggestion>[^']+)'\?")
_FORGOT_IMPORT = lazy_compile(r"Did you forget to import '(?P<import>[^']+)'\?")

# Import names whose PyPI distribution is known (a curated allow-list: a
# package name guessed from an import could install a typosquat, so only
# these are offered to the compile recipe's install step).
KNOWN_PACKAGES: dict[str, str] = {
    "yaml": "PyYAML",
    "PIL": "Pillow",
    "cv2": "opencv-python",
    "sklearn": "scikit-learn",
    "bs4": "beautifulsoup4",
    "dateutil": "python-dateutil",
    "dotenv": "python-dotenv",
    "jwt": "PyJWT",
    "attr": "attrs",
    "serial": "pyserial",
    "Crypto": "pycryptodome",
    "magic": "python-magic",
    "docx": "python-docx",
    "OpenSSL": "pyOpenSSL",
    "MySQLdb": "mysqlclient",
    "psycopg2": "psycopg2-binary",
    "google.protobuf": "protobuf",
    "multipart": "python-multipart",
    "jose": "python-jose",
    "slugify": "python-slugify",
    "toml": "toml",
    **{
        name: name
        for name in (
            "requests",
            "numpy",
            "pandas",
            "scipy",
            "matplotlib",
            "flask",
            "django",
            "fastapi",
            "starlette",
            "uvicorn",
            "pydantic",
            "httpx",
            "aiohttp",
            "click",
            "typer",
            "rich",
            "jinja2",
            "sqlalchemy",
            "alembic",
            "redis",
            "boto3",
            "botocore",
            "pytest",
            "hypothesis",
            "mypy",
            "ruff",
            "black",
            "tqdm",
            "lxml",
            "markdown",
            "tomli",
            "cryptography",
            "paramiko",
            "celery",
            "torch",
            "transformers",
            "openai",
            "anthropic",
            "tenacity",
            "structlog",
            "loguru",
            "orjson",
            "ujson",
            "simplejson",
            "psutil",
            "docker",
            "kubernetes",
            "grpc",
        )
    },
}
_PACKAGE_OK = lazy_compile(r"^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*$")


def import_hint(message: str, is_local: Callable[[str], bool] | None = None) -> dict[str, Any]:
    """What the compile recipe needs from an ImportError message: the module,
    the name that could not be imported, and the PyPI package when it is on
    the curated list and the module is not one of the project's own."""
    hint: dict[str, Any] = {}
    m = _NO_MODULE.search(message) or _CANNOT_IMPORT.search(message)
    if m:
        hint.update(m.groupdict())
    s = _DID_YOU_MEAN.search(message)
    if s:
        hint["suggestion"] = s.group("suggestion")
    module = hint.get("module")
    if isinstance(module, str) and _PACKAGE_OK.match(module) and "name" not in hint:
        top = module.split(".", 1)[0]
        if is_local is not None and (is_local(f"{top}.py") or is_local(f"{top}/__init__.py")):
            hint["local"] = True
        else:
            package = KNOWN_PACKAGES.get(module) or KNOWN_PACKAGES.get(top)
            if package:
                hint["package"] = package
    return hint


def name_hint(message: str) -> dict[str, Any]:
    """The undefined name of a NameError, and Python's own suggestion."""
    hint: dict[str, Any] = {}
    for pattern in (_NAME_NOT_DEFINED, _DID_YOU_MEAN, _FORGOT_IMPORT):
        m = pattern.search(message)
        if m:
            hint.update(m.groupdict())
    name = hint.get("name")
    if isinstance(name, str) and name in sys.stdlib_module_names:
        hint["stdlib"] = True  # `import warnings` is the fix (Python < 3.12 does not say so)
    return hint


# What stops the code from being built or imported: compile, wherever raised.
BUILD_ERRORS = SYNTAX_ERRORS | IMPORT_ERRORS | {"NameError"}


def is_env_key_error(exc: str, code_line: str) -> bool:
    """A KeyError on os.environ / getenv: a missing environment variable."""
    return exc.rsplit(".", 1)[-1] == "KeyError" and (
        "environ" in code_line or "getenv" in code_line
    )


def exception_rule(exc: str) -> str:
    """The rule id a traceback ending in `exc` is reported under."""
    short = exc.rsplit(".", 1)[-1]
    if short in SYNTAX_ERRORS:
        return "python.syntax_error"
    if short in IMPORT_ERRORS:
        return "python.import_error"
    if short == "NameError":
        return "python.name_error"
    return "python.traceback"


def exception_hint(exc: str, message: str, ctx: LineContext | None = None) -> dict[str, Any]:
    short = exc.rsplit(".", 1)[-1]
    hint: dict[str, Any] = {"exception": exc}
    if short in IMPORT_ERRORS:
        hint.update(import_hint(message, ctx.in_project if ctx is not None else None))
    elif short == "NameError":
        hint.update(name_hint(message))
    elif short == "AttributeError":
        s = _DID_YOU_MEAN.search(message)
        if s:
            hint["suggestion"] = s.group("suggestion")
    advice = [
        m.group(0)
        for p in (_DID_YOU_MEAN, _FORGOT_IMPORT)
        if "Did you " in message and (m := p.search(message))
    ]
    if advice:  # the interpreter's own suggestion, verbatim, for a person to read
        hint["advice"] = advice
    return hint


# Not failures of the code: it exited on purpose.  (KeyboardInterrupt is
# SIGINT from outside: a cancelled CI job, a wrapper's time limit; the
# interpreter rule reports it as infra, transient.)
NOT_FAILURES = frozenset({"SystemExit", "GeneratorExit"})

# -- the cause of a failing test -------------------------------------------------
# The exception types that say a connection failed (by their short name); any
# other exception whose message says so counts too (network_kind).
NETWORK_ERRORS = frozenset(
    {
        "ConnectionError",
        "ConnectionRefusedError",
        "ConnectionResetError",
        "ConnectionAbortedError",
        "gaierror",
        "URLError",
        "ConnectTimeout",
        "ConnectTimeoutError",
        "ReadTimeout",
        "ConnectError",
        "NewConnectionError",
        "MaxRetryError",
        "ClientConnectorError",
        "ServerDisconnectedError",
        "RemoteDisconnected",
    }
)
_KEY = lazy_compile(r"^['\"](?P<key>[A-Za-z_][A-Za-z0-9_]*)['\"]$")
_ASSERTIONS = frozenset({"AssertionError", "DocTestFailure", "Failed"})


def _name_cause(raised: Raised, in_project: Callable[[str], bool] | None) -> Cause | None:
    short = raised.short
    if short == "NameError":
        return Cause(FailureType.COMPILE, {"cause": "name", **name_hint(raised.message)}, True)
    if short in IMPORT_ERRORS:
        hint = {"cause": "import", **import_hint(raised.message, in_project)}
        return Cause(FailureType.COMPILE, hint, True)
    return None


def _environment(raised: Raised, code: Sequence[str]) -> Cause | None:
    """A refused connection, a failed lookup, a missing variable."""
    short = raised.short
    kind = network_kind(raised.message)
    if kind is None and short in NETWORK_ERRORS:
        kind = "timeout" if "Timeout" in short else "refused" if "Refused" in short else "network"
    if kind is None and short in ("TimeoutError", "timeout") and raised.message:
        kind = "timeout"  # socket's "timed out"; a bare TimeoutError is often a test's own wait
    if kind is not None:
        return infra_network(kind, address([raised.message], [*raised.code, *code]))
    if short == "KeyError":
        key = _KEY.match(raised.message)
        reads = env_reads([*raised.code, *code])
        if key and key.group("key") in reads:
            return infra_env(key.group("key"))
    var = env_variable([raised.message])
    return infra_env(var) if var else None


def cause_of(
    chain: Sequence[Raised],
    code: Sequence[str] = (),
    in_project: Callable[[str], bool] | None = None,
) -> Cause | None:
    """The cause a failing test's exceptions name (`chain` oldest first, the
    reported exception last; `code`: source lines the report showed), or
    None for a test failure proper.

    The reported exception is read first, then the ones chained to it, the
    first that names a cause deciding: a NameError or an import error is
    compile (reported at the throwing frame); a refused, reset or timed-out
    connection or a failed lookup is infra (transient, with the address);
    a KeyError on a variable the code reads from os.environ, or a message
    saying a variable is not set, is infra (the variable named).  An
    assertion is the test's own verdict: only an exception it was raised
    while handling is looked at.
    """
    if not chain:
        return None
    # An assertion is the test's own verdict; raised while handling another
    # exception (pytest.raises / pytest.warns saying "DID NOT WARN" over a
    # NameError), the exception it handled is what to look at.
    candidates = chain[:-1] if chain[-1].short in _ASSERTIONS else chain
    for raised in reversed(candidates):
        cause = _name_cause(raised, in_project) or _environment(raised, code)
        if cause is not None:
            if raised is not chain[-1]:
                cause.hint["cause_exception"] = raised.text[:300]
                if cause.category is FailureType.COMPILE:
                    cause.at = raised.where  # the import is missing where it raised
            return cause
    return None
