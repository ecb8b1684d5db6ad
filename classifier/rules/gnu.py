"""The generic rule: diagnostics in the GNU standard shape, for the tools no
other rule knows.

The GNU Coding Standards ask every tool to report `sourcefile:lineno:
message` (also `sourcefile:lineno:column: message`, `program:sourcefile:
lineno: message`, `lineno.column` and ranges); Vim's default errorformat
reads that, and the MSVC-style `sourcefile(lineno[,column]): message`.
These rules read both shapes, as a last resort:

* they run last on a line (the lowest priority), so any specific rule
  that matches the line wins, and a line inside another rule's report is
  never theirs;
* the file must be a regular file inside the working tree (not vendored);
  a name that is not there is not a location, whatever the line says;
* their records are dropped at close when a specific rule found anything
  in the same output (postprocess.drop_generic), and when the run is
  known to have succeeded (exit status 0): a successful run of an unknown
  tool gives nothing;
* the message follows `: ` (one space, as the standard has it): `grep -n`
  prints `file:line:text`, which is not a diagnostic;
* a line whose message names no severity (`error:`, `Error:`, `parser
  error :`) counts only when the run is known to have failed; `warning:`
  lines are warnings (docs/warnings.md); `note:`, `info:`, `hint:` lines
  are nothing;
* confidence 0.5 (0.4 without a severity); the tool is the command's
  program when it is known (or the `program:` the line starts with).

Triggers: a source file extension followed by `:` and a digit (or `(` and
a digit), and a few extension-less build files (`Makefile:`), so the
prefilter still skips lines without a file position (docs/benchmarks.md).
"""

from __future__ import annotations

import re

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext
from .registry import rule

ECOSYSTEM = "Any tool (GNU format)"
RULE_IDS = ("gnu.colon", "gnu.paren")
PRIORITY = -100  # after every other rule
MAX_PATH = 512
CONFIDENCE = 0.5
CONFIDENCE_NO_SEVERITY = 0.4

# Source and configuration file extensions seen in compiler, linter and
# build-tool output.
EXTENSIONS = (
    *("c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "ino", "m", "mm", "cu", "s", "S", "asm"),
    *("cs", "fs", "fsx", "vb", "java", "kt", "kts", "scala", "sc", "groovy", "gradle", "clj"),
    *("go", "rs", "zig", "nim", "d", "v", "sv", "vhd", "vhdl", "f", "f90", "f95", "for", "pas"),
    *("py", "pyi", "pyx", "rb", "rake", "erb", "php", "pl", "pm", "t", "lua", "tcl", "r", "R"),
    *("js", "mjs", "cjs", "jsx", "ts", "tsx", "mts", "cts", "vue", "svelte", "astro", "coffee"),
    *("css", "scss", "sass", "less", "html", "htm", "xml", "xsd", "xsl", "svg", "po", "pot"),
    *("json", "jsonc", "json5", "yaml", "yml", "toml", "ini", "cfg", "conf", "properties"),
    *("sh", "bash", "zsh", "fish", "ps1", "psm1", "bat", "cmd", "sql", "proto", "graphql"),
    *("tf", "tfvars", "hcl", "nix", "dart", "swift", "ex", "exs", "erl", "hrl", "hs", "ml"),
    *("mli", "elm", "jl", "md", "rst", "adoc", "tex", "txt", "cmake", "mk", "bzl", "bazel"),
    *("star", "dockerfile", "j2", "jinja", "tpl", "mustache", "hbs", "lock", "mod", "spec"),
)
# Build files without an extension.
BARE_NAMES = (
    "Makefile",
    "makefile",
    "GNUmakefile",
    "Dockerfile",
    "Containerfile",
    "Jenkinsfile",
    "Rakefile",
    "Gemfile",
    "Vagrantfile",
    "Justfile",
    "justfile",
    "Procfile",
    "BUILD",
    "WORKSPACE",
)
_DIGITS = "0123456789"

# Longest first, so that `.json` is never read as `.js`; then by name, so the
# pattern is the same in every process (a set's order changes with the hash
# seed, and each new pattern text would be compiled and stored again).
_EXT = "|".join(sorted({re.escape(e) for e in EXTENSIONS}, key=lambda e: (-len(e), e)))
_BARE = "|".join(BARE_NAMES)
_FILE = (
    r"(?P<file>(?:[A-Za-z]:[\\/])?(?:[^\s:\"'()<>|,;=*?]*[\\/])?"
    rf"(?:[^\s:\"'()<>|,;=*?/\\]*\.(?:{_EXT})|{_BARE}))"
)
_SEVERITY = lazy_compile(
    r"^(?:(?P<kind>[A-Za-z][\w-]{0,20})\s)?(?P<sev>fatal error|error|warning|note|info|hint|remark|help)\b\s*:?\s*",
    re.IGNORECASE,
)
_NOT_A_DIAGNOSTIC = lazy_compile(
    r"^\(Each undeclared identifier is reported only once|^for each function it appears in\.\)"
)
_SKIP_LINE = lazy_compile(r"^(?:In file included from |\s+from )")


def _triggers(suffix: str, after: str) -> tuple[str, ...]:
    return tuple(f"{suffix}{after}{d}" for d in _DIGITS[1:])


_COLON_TRIGGERS = tuple(t for e in EXTENSIONS for t in _triggers(f".{e}", ":")) + tuple(
    t for name in BARE_NAMES for t in _triggers(name, ":")
)
_PAREN_TRIGGERS = tuple(t for e in EXTENSIONS for t in _triggers(f".{e}", "("))


def _diagnostic(
    m: re.Match[str], ctx: LineContext, shape: str, prog: str | None = None
) -> Hit | None:
    file = m.group("file")
    message = m.group("message").strip()
    if len(file) > MAX_PATH or not message or _NOT_A_DIAGNOSTIC.match(message):
        return None
    if _SKIP_LINE.match(ctx.line) or not ctx.in_project(file):
        return None
    level: str | None = None
    if sev := _SEVERITY.match(message):
        word = sev.group("sev").lower()
        if word in ("note", "info", "hint", "remark", "help"):
            return None
        level = "warning" if word == "warning" else "error"
    hint: dict[str, object] = {"level": level, "shape": shape, "generic": True}
    if prog:
        hint["program"] = prog
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        file=file,
        line=int(m.group("line")),
        column=int(m.group("column")) if m.group("column") else None,
        tool=prog,
        warning=level == "warning",
        confidence=CONFIDENCE if level else CONFIDENCE_NO_SEVERITY,
        hint=hint,
    )


@rule(
    id="gnu.colon",
    category=FailureType.COMPILE,
    tool="unknown",
    pattern=rf"^(?:(?P<prog>[A-Za-z][\w.+-]*):\s?)?{_FILE}:(?P<line>[1-9]\d*)(?:[:.](?P<column>\d+))?(?:-\d+(?:[:.]\d+)?)?: (?P<message>\S.*)$",
    triggers=_COLON_TRIGGERS,
    url="https://www.gnu.org/prep/standards/html_node/Errors.html",
    priority=PRIORITY,
)
def gnu_colon(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A diagnostic in the GNU standard shape from a tool no rule knows.

    What it detects: `file:line: message`, `file:line:column: message`,
    `file:line.column: message`, with an optional `program:` in front and
    an optional severity word (`error:`, `Error:`, `parser error :`), on
    a file that exists in the working tree; only when no specific rule
    explained the output (see the module docstring for every condition).

    Example output (`as -o /dev/null boot.s`, GNU assembler 2.40):
        boot.s: Assembler messages:
        boot.s:2: Error: no such instruction: `movz %eax,%ebx'

    Recipe: compile (test when the command is a test runner), low
    confidence: edit the file at the line. hint: level (error, warning or
    none), shape, program.

    References: https://www.gnu.org/prep/standards/html_node/Errors.html,
    https://vimhelp.org/quickfix.txt.html#errorformat
    """
    return _diagnostic(m, ctx, "colon", m.group("prog"))


@rule(
    id="gnu.paren",
    category=FailureType.COMPILE,
    tool="unknown",
    pattern=rf"^{_FILE}\((?P<line>[1-9]\d*)(?:,(?P<column>\d+))?\)\s?: (?P<message>\S.*)$",
    triggers=_PAREN_TRIGGERS,
    url="https://vimhelp.org/quickfix.txt.html#errorformat",
    priority=PRIORITY,
)
def gnu_paren(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A diagnostic in the MSVC shape from a tool no rule knows.

    What it detects: `file(line): message` and `file(line,column):
    message` (Vim's default errorformat reads it; Microsoft's compilers and
    clang's `-fdiagnostics-format=msvc` print it), under the same
    conditions as gnu.colon.

    Example output (`clang -fdiagnostics-format=msvc -fsyntax-only report.c`, clang 14):
        report.c(2,10): error: use of undeclared identifier 'totl'

    Recipe: compile, low confidence. hint: level, shape.

    References: https://vimhelp.org/quickfix.txt.html#errorformat,
    https://clang.llvm.org/docs/UsersManual.html#cmdoption-fdiagnostics-format
    """
    return _diagnostic(m, ctx, "paren")
