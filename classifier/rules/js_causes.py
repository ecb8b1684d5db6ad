"""What a JavaScript error inside a test says about its cause.

The test runners (js_test.py: jest, vitest, mocha, node:test) print the
error a test threw; when its name or text names a cause, the record is the
cause's, not a failing test's:

* `ReferenceError: Money is not defined` is a missing import or
  declaration: compile, at the frame that threw (hint `name`);
* `Error: Cannot find module './money'` / `Cannot find package 'x'` is a
  missing module: compile (hint `module`, and `package` for a bare
  specifier);
* `connect ECONNREFUSED 127.0.0.1:5432`, `fetch failed` caused by one,
  `getaddrinfo ENOTFOUND`, `ETIMEDOUT`: a service that did not answer,
  infra and transient (hint `host`, `port`);
* an error saying an environment variable is not set (`SHOP_API_KEY is not
  set`, `Missing required environment variable: X`), or a guard on
  `process.env.X` shown in the code frame that threw: infra (hint
  `variable`).

An assertion (`AssertionError`, `expect(received)...`) is the test's own
verdict and names no cause.  Pure functions of the printed text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .causes import Cause, address, env_reads, env_variable, infra_env, infra_network, network_kind
from .js_frames import module_hint

_ERROR = lazy_compile(
    r"^(?:Uncaught )?(?P<type>[A-Z][A-Za-z]*Error|Error)(?: \[(?P<code>[\w]+)\])?: (?P<message>.*)$"
)
_NOT_DEFINED = lazy_compile(r"^(?P<name>[A-Za-z_$][\w$]*) is not defined$")
_MISSING_MODULE = lazy_compile(r"Cannot find (?:module|package) ['\"](?P<module>[^'\"]+)['\"]")
_ASSERTION = lazy_compile(r"^(?:AssertionError|expect\(|Expected|assert)")
# A message that says a setting is missing without naming it: the variable is
# the one the code frame reads, when it reads exactly one.
_MISSING_WORDS = lazy_compile(
    r"\b(?:not set|unset|must be set|environment|env var|variable)\b", re.I
)
# A code-frame line of vitest (`  4|   let x`) or jest (`> 4 |   let x`): its source text.
_CODE_FRAME = lazy_compile(r"^\s*>?\s*\d+\s?\|(?P<code>.*)$")


def error_type(message: str) -> tuple[str | None, str]:
    """(the error's type, its message) of a printed `TypeError: x` line."""
    m = _ERROR.match(message.strip())
    return (m.group("type"), m.group("message")) if m else (None, message.strip())


def code_lines(lines: Sequence[str]) -> list[str]:
    """The source text of the code-frame lines among printed lines."""
    out = []
    for line in lines:
        m = _CODE_FRAME.match(line) if "|" in line else None
        if m and m.group("code").strip():
            out.append(m.group("code").strip())
    return out


def js_cause(message: str, texts: Sequence[str] = (), code: Sequence[str] = ()) -> Cause | None:
    """The cause named by a test's error: `message` is its first line,
    `texts` the further lines printed with it ("Caused by: ...", the
    error's properties), `code` the source lines of its code frame."""
    head = message.strip()
    if head.startswith("[") and head.endswith("]"):
        # node:test prints an error with no stack as `[ReferenceError [Error]: x]`
        head = head[1:-1]
    if not head or _ASSERTION.match(head):
        return None
    kind, text = error_type(head)
    if kind == "AssertionError":
        return None
    if kind == "ReferenceError":
        name = _NOT_DEFINED.match(text)
        if name:
            return Cause(FailureType.COMPILE, {"cause": "name", "name": name.group("name")}, True)
    missing = _MISSING_MODULE.search(head)
    if missing:
        hint = {"cause": "import", **module_hint(missing.group("module"))}
        return Cause(FailureType.COMPILE, hint, True)
    messages = [head, *texts]
    cause: Cause | None = None
    net = network_kind("\n".join(messages))
    if net is not None:
        cause = infra_network(net, address(messages, code))
        if network_kind(head) is None:  # "fetch failed", caused by "connect ECONNREFUSED ..."
            below = next((t.strip() for t in texts if network_kind(t)), "")
            if below:
                cause.hint["cause_exception"] = below[:300]
    else:
        var = env_variable(messages)
        if var is None and _MISSING_WORDS.search(text):
            reads = env_reads(code)
            var = reads[0] if len(reads) == 1 else None
        cause = infra_env(var) if var else None
    if cause is not None:
        cause.at_throw = True
    return cause
