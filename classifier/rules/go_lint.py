"""Go linters as CI runs them: staticcheck, golangci-lint, and the go
command's lines without a column (go.mod parse errors, `-gcflags=-C`).

go vet's and go build's `file:line:col: message` lines are go.py's. Every
finding here fails its run (staticcheck and golangci-lint exit 1 for any
issue; `--issues-exit-code=0` makes them advisory: docs/warnings.md).
golangci-lint's `gosec` findings are trust_gate (classifier/security_codes.py).
"""

from __future__ import annotations

import re
from typing import Any

from ..lazyre import lazy_compile
from ..security_codes import is_security_code
from ..taxonomy import FailureType
from .base import Hit, LineContext, hit_from_match, match_above
from .registry import rule

ECOSYSTEM = "Go"
_GO_FILE = r"(?P<file>[^\s:][^:]*\.go)"
_PACKAGE = lazy_compile(r"^# (?P<package>\S+)(?: \[(?P<test>\S+)\])?$")


@rule(
    id="go_lint.staticcheck",
    category=FailureType.COMPILE,
    tool="staticcheck",
    pattern=rf"^{_GO_FILE}:(?P<line>\d+):(?P<column>\d+): (?P<message>.+) \((?P<code>(?:SA|S|ST|QF|U)\d{{4}})\)\s*$",
    triggers=(" (SA", " (S1", " (ST", " (QF", " (U1"),
    url="https://staticcheck.dev/docs/checks/",
    priority=20,
)
def staticcheck_finding(m: re.Match[str], ctx: LineContext) -> Hit:
    """A staticcheck finding.

    What it detects: `main.go:22:2: self-assignment of x to x (SA4018)`,
    the check id in parentheses at the end (SA, S, ST, QF, U1000).

    Example output (`staticcheck ./...`, staticcheck 2023.1, Debian's go-staticcheck):
        main.go:9:2: field mu is unused (U1000)
        main.go:20:13: Printf format %d has arg #2 of wrong type string (SA5009)

    Recipe: compile. hint: check.

    References: https://staticcheck.dev/docs/checks/
    """
    return hit_from_match(m, ctx, hint={"check": m.group("code")})


# The linters golangci-lint runs by default and the ones projects most
# often enable: the name it prints at the end of each issue line.
_GOLANGCI_LINTERS = (
    "errcheck",
    "govet",
    "ineffassign",
    "staticcheck",
    "unused",
    "gosimple",
    "stylecheck",
    "typecheck",
    "gosec",
    "revive",
    "gocritic",
    "gofmt",
    "gofumpt",
    "goimports",
    "misspell",
    "lll",
    "dupl",
    "gocyclo",
    "gocognit",
    "funlen",
    "godot",
    "godox",
    "errorlint",
    "bodyclose",
    "noctx",
    "unparam",
    "prealloc",
    "nakedret",
    "exhaustive",
    "wrapcheck",
    "nilerr",
    "unconvert",
    "whitespace",
    "wsl",
    "nolintlint",
    "goconst",
    "forbidigo",
    "depguard",
    "mnd",
    "err113",
    "testifylint",
    "copyloopvar",
    "usestdlibvars",
    "perfsprint",
    "sqlclosecheck",
    "rowserrcheck",
    "contextcheck",
    "gomoddirectives",
    "tparallel",
    "thelper",
    "paralleltest",
    "asciicheck",
    "dogsled",
    "durationcheck",
    "errname",
    "forcetypeassert",
    "goprintffuncname",
    "importas",
    "makezero",
    "nestif",
    "nilnil",
    "predeclared",
    "tagliatelle",
    "varnamelen",
    "intrange",
    "canonicalheader",
)
_GOLANGCI_CODE = lazy_compile(r"^(?P<code>G\d{3}|(?:SA|S|ST|QF|U)\d{4}|[a-z]+): ")


@rule(
    id="go_lint.golangci_lint",
    category=FailureType.COMPILE,
    tool="golangci-lint",
    pattern=rf"^{_GO_FILE}:(?P<line>\d+)(?::(?P<column>\d+))?: (?P<message>.+) \((?P<linter>[a-z][a-z0-9]*)\)\s*$",
    triggers=tuple(f" ({name})" for name in _GOLANGCI_LINTERS),
    url="https://golangci-lint.run/usage/linters/",
    priority=25,
)
def golangci_lint_issue(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A golangci-lint issue in its default text format.

    What it detects: `main.go:11:9: Error return value of `cmd.Run` is not
    checked (errcheck)`, the linter's name in parentheses at the end (the
    source line and a caret follow; `N issues:` and `* linter: N` close the
    report, `0 issues.` is a clean run). The check id a linter puts first
    in the message (`SA4018: ...`, govet's `printf: ...`, `G204: ...`) is
    the code. A `gosec` issue is a trust_gate.

    Example output (`golangci-lint run ./...`, golangci-lint 2.x; documented
    format, not captured: no package of it can be installed here):
        main.go:11:9: Error return value of `cmd.Run` is not checked (errcheck)
                cmd.Run()
                       ^

    Recipe: compile (trust_gate for gosec). hint: linter.

    References: https://golangci-lint.run/usage/linters/
    """
    linter = m.group("linter")
    if linter not in _GOLANGCI_LINTERS:
        return None
    message = m.group("message").strip()
    code = c.group("code") if (c := _GOLANGCI_CODE.match(message)) else linter
    security = linter == "gosec" or is_security_code(code, "golangci-lint")
    return hit_from_match(
        m,
        ctx,
        code=code,
        category=FailureType.TRUST_GATE if security else None,
        hint={"linter": linter},
    )


@rule(
    id="go_lint.gomod",
    category=FailureType.COMPILE,
    tool="go",
    pattern=r"^(?P<file>\S*go\.(?:mod|work)):(?P<line>\d+)(?::(?P<column>\d+))?: (?P<message>.+)$",
    triggers=("go.mod:", "go.work:"),
    url="https://go.dev/ref/mod#go-mod-file",
    priority=20,
)
def gomod_error(m: re.Match[str], ctx: LineContext) -> Hit:
    """An error in go.mod (or go.work) that stops every go command.

    What it detects: `/path/go.mod:5: unknown directive: requre` under `go:
    errors parsing go.mod:` (go vet, go build and go test all print it),
    with no column.

    Example output (`go vet ./...`, go 1.19.8):
        go: errors parsing go.mod:
        /work/shop/go.mod:5: unknown directive: requre

    Recipe: compile (fix the directive). hint: gomod.

    References: https://go.dev/ref/mod#go-mod-file
    """
    return hit_from_match(m, ctx, code="go.mod", hint={"gomod": True})


_UNDEFINED = lazy_compile(r"^undefined: (?P<name>[\w.]+)$")


@rule(
    id="go_lint.no_column",
    category=FailureType.COMPILE,
    tool="go",
    pattern=rf"^(?:vet: )?{_GO_FILE}:(?P<line>\d+): (?P<message>\S.*)$",
    triggers=(".go:",),
    url="https://pkg.go.dev/cmd/compile",
)
def go_no_column(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A go build or go vet diagnostic printed without a column.

    What it detects: `./main.go:6: undefined: strings` — the compiler with
    `-gcflags=-C` (columns off), go vet of older toolchains, under the `#
    package` header (hint["package"]). Indented `    x_test.go:10: got 1`
    lines are go test's log output (go.test), not read here.

    Example output (`go build -gcflags=-C -o /dev/null .`, go 1.19.8):
        # example.com/shop
        ./main.go:6: undefined: strings

    Recipe: compile, as for go.compile (a missing import is added). hint:
    package, name.

    References: https://pkg.go.dev/cmd/compile, https://pkg.go.dev/cmd/vet
    """
    header = match_above(ctx, _PACKAGE, 40)
    if header is None:
        return None  # not under a `# package` header: a log line of something else
    message = m.group("message").strip()
    hint: dict[str, Any] = {"package": header.group("package")}
    if u := _UNDEFINED.match(message):
        hint["name"] = u.group("name")
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        file=m.group("file"),
        line=int(m.group("line")),
        hint=hint,
    )
