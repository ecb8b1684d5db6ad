"""The eslint rules: the stylish formatter's per-file report, and ESLint's crash
report (a configuration it rejects, a rule that threw)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ...lazyre import lazy_compile
from ...security_codes import is_security_code
from ...taxonomy import FailureType
from ..base import Block, Hit, LineContext, lines_above
from ..registry import rule

# -- eslint (stylish formatter) -------------------------------------------------------------

_ESLINT_MSG = lazy_compile(
    r"^\s+(?P<line>\d+):(?P<column>\d+)\s+(?P<severity>error|warning)\s+(?P<message>.+?)"
    r"(?:\s{2,}(?P<code>[@\w][\w@/.-]*))?\s*$"
)
_ESLINT_FILE = lazy_compile(r"^(?P<file>(?:[A-Za-z]:[\\/]|/|\.{1,2}[\\/]|[\w@.-]+[\\/])\S.*?)\s*$")
_ESLINT_SUMMARY = lazy_compile(r"^\s*(?:✖|X) \d+ problems? \(")


class _EslintBlock:
    max_lines = 100_000

    def __init__(self, file: str | None) -> None:
        self.file = file
        self.hits: list[Hit] = []
        self.done = False

    def take(self, m: re.Match[str], line: str, line_no: int) -> None:
        code = m.group("code")
        trust = is_security_code(code, "eslint")
        # a warning is a failure only when the run failed because of it
        # (--max-warnings): classifier/warnings_policy.py decides
        warning = m.group("severity") != "error" and not trust
        message = m.group("message").strip()
        self.hits.append(
            Hit(
                signal=f"{m.group('severity')}  {message}" + (f"  {code}" if code else ""),
                message=message,
                file=self.file,
                line=int(m.group("line")) or None,
                column=int(m.group("column")) or None,
                code=code,
                log_line=line_no,
                category=FailureType.TRUST_GATE if trust else None,
                warning=warning,
                hint={"rule": code} if code else {},
            )
        )

    def feed(self, line: str, line_no: int) -> bool:
        if self.done:
            return False
        if not line.strip():
            return True
        m = _ESLINT_MSG.match(line)
        if m:
            self.take(m, line, line_no)
            return True
        if _ESLINT_SUMMARY.match(line):
            self.done = True
            return True
        if line.lstrip().startswith("✖ ") or line.strip().startswith(
            ("0 errors and", "1 error and", "1 warning and")
        ):
            return True  # "N errors and M warnings potentially fixable with `--fix`"
        f = _ESLINT_FILE.match(line)
        if f and not line.startswith(" "):
            self.file = f.group("file")
            return True
        return False

    def finish(self) -> Iterable[Hit]:
        return self.hits


@rule(
    id="eslint.stylish",
    category=FailureType.COMPILE,
    tool="eslint",
    pattern=_ESLINT_MSG.pattern,
    triggers=("  error  ", "  warning  "),
    url="https://eslint.org/docs/latest/use/formatters/#stylish",
)
def eslint_stylish(m: re.Match[str], ctx: LineContext) -> Block | None:
    """eslint problems in the default `stylish` format.

    What it detects: a file header line (the file's path, alone on its line)
    followed by `  line:col  error  message  rule-id` lines, as many files as
    were linted, closed by `✖ N problems (E errors, W warnings)`. Each
    `error` line is one failure with the rule id as code; `warning` lines
    are warnings, failures only when the run failed because of them
    (`--max-warnings`, docs/warnings.md), except for security plugins (`security/...`, `no-secrets/...`), whose findings are
    trust_gate failures. Parsing errors have no rule id.

    Example output (`eslint src`, eslint 10.15.0, flat config):
        /work/app/src/app.js
          1:10  error    'helper' is defined but never used  no-unused-vars
          6:5   warning  Unexpected console statement        no-console

        ✖ 2 problems (1 error, 1 warning)

    Recipe: compile (trust_gate for security plugins). `rule` in the hint
    names the eslint rule.

    References: https://eslint.org/docs/latest/use/formatters/#stylish
    """
    header = None
    for prev in lines_above(ctx, 200):
        if not prev.strip() or _ESLINT_MSG.match(prev):
            continue
        f = _ESLINT_FILE.match(prev)
        if f and not prev.startswith(" "):
            header = f.group("file")
        break
    if header is None:
        return None
    block = _EslintBlock(header)
    block.take(m, ctx.line, ctx.line_no)
    return block


# -- eslint crashed ("Oops! Something went wrong! :(") ---------------------------------------

_ESLINT_VERSION = lazy_compile(r"^ESLint: v?\d+\.\d+")
_CONFIG_FILES = tuple(f"eslint.config.{ext}" for ext in ("js", "mjs", "cjs", "ts", "mts", "cts"))
_RULE_NAMED = lazy_compile(r"(?:Configuration for rule|Key) \"(?P<rule>[@\w][\w@/.-]*)\"")
_LINTING = lazy_compile(r"^Occurred while linting (?P<file>.+?)(?::(?P<line>\d+))?$")
_CRASH_RULE = lazy_compile(r"^Rule: \"(?P<rule>[^\"]+)\"$")
_MISSING_MODULE = lazy_compile(r"Cannot find (?:package|module) '")


class _EslintCrash:
    """The lines after ESLint's crash banner: its version, the message (a
    config problem, or a rule's exception with the file it was linting)."""

    max_lines = 60

    def __init__(self, ctx: LineContext) -> None:
        self.ctx = ctx
        self.log_line = ctx.line_no
        self.version: str | None = None
        self.message: list[str] = []
        self.linting: re.Match[str] | None = None
        self.rule: str | None = None
        self.done = False

    def feed(self, line: str, line_no: int) -> bool | None:
        text = line.strip()
        if self.done or (self.message and not text) or line.startswith("    at "):
            return False
        if self.version is None:
            if _ESLINT_VERSION.match(text):
                self.version = text
                return True
            if text:
                self.done = True  # not ESLint's banner
                return False
            return True
        if not text:
            return True
        if (m := _LINTING.match(text)) is not None:
            self.linting = m
        elif (m := _CRASH_RULE.match(text)) is not None:
            self.rule = m.group("rule")
        elif len(self.message) < 6:
            self.message.append(text)
        return None  # the other rules read the message too (a missing package)

    def finish(self) -> Iterable[Hit]:
        if self.version is None or not self.message or _MISSING_MODULE.search(self.message[0]):
            return []
        message = " ".join(self.message)
        hint: dict[str, str] = {"tool_version": self.version}
        if self.linting is not None:  # a rule threw while linting a file
            rule_id = self.rule or ""
            if rule_id:
                hint["rule"] = rule_id
                if "/" in rule_id:
                    hint["plugin"] = rule_id.rsplit("/", 1)[0]
            line = self.linting.group("line")
            return [
                Hit(
                    signal=self.message[0],
                    message=f"rule {rule_id} crashed: {message}" if rule_id else message,
                    file=self.linting.group("file"),
                    line=int(line) if line else None,
                    log_line=self.log_line,
                    category=FailureType.PLUGIN_STARTUP,
                    hint=hint,
                )
            ]
        config = None
        if "couldn't find" not in message:  # else there is none to point at
            config = next((f for f in _CONFIG_FILES if self.ctx.exists(f)), None)
        named = [m.group("rule") for m in _RULE_NAMED.finditer(message)]
        if named and config is not None:  # `Key "rules": Key "no-console"`: the innermost
            hint["rule"] = hint["config_option"] = named[-1]
        return [
            Hit(
                signal=self.message[0],
                message=message,
                file=config,
                log_line=self.log_line,
                hint=hint,
            )
        ]


@rule(
    id="eslint.crash",
    category=FailureType.COMPILE,
    tool="eslint",
    pattern=r"^Oops! Something went wrong! :\($",
    triggers=("Oops! Something went wrong!",),
    url="https://eslint.org/docs/latest/use/configure/configuration-files",
    priority=10,
)
def eslint_crash(m: re.Match[str], ctx: LineContext) -> Block:
    """ESLint stopped before linting: its `Oops! Something went wrong! :(`
    report.

    What it detects: the banner, `ESLint: <version>`, then the message. A
    configuration ESLint rejects (`Configuration for rule "no-unused-vars"
    is invalid`, `Key "rules": Key "no-console": ... should NOT have
    additional properties`, `ESLint couldn't find an eslint.config.*
    file`) is compile, in the project's eslint.config.* (at the line naming
    the rule, when the message names one). A rule that threw (`Occurred
    while linting /app/src/a.js:3` / `Rule: "plugin/rule"`) is
    plugin_startup, at the linted line, with the rule and its plugin in
    the hint. A missing package (`Cannot find package 'x'`) is left to the
    plugin and Node rules, which read the same lines.

    Example output (`eslint src`, ESLint 10.15.0):
        Oops! Something went wrong! :(

        ESLint: 10.15.0

        Configuration for rule "no-unused-vars" is invalid. Expected severity of "off", 0, "warn", 1, "error", or 2.

    Recipe: compile: correct the configuration (escalated with the
    message); plugin_startup: escalated with the rule and plugin (update
    or disable it).

    References: https://eslint.org/docs/latest/use/configure/configuration-files,
    https://eslint.org/docs/latest/use/configure/rules
    """
    return _EslintCrash(ctx)
