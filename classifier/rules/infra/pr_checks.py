"""`gh pr checks`: a pull request's checks, each failed one a record of the
kind its name and description say (a CLA or a code scan is a gate, a test
job a test failure, a build or lint a compile failure, a deploy infra), its
run's URL in the hint so that the agent's next step is `faultlens ci URL`,
which reads that job's log and places its failures at the lines."""

from __future__ import annotations

import re

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import PRIORITY, infra_hint

# A Go time.Duration as `String()` prints it (1m26s, 41s, 1.5s, 2h3m0s), or
# the "0" gh prints without one (output.go: no start or completion time).
_ELAPSED = r"(?:0|(?:\d+h)?(?:\d+m)?\d+(?:\.\d+)?(?:s|ms|µs|ns)|\d+h\d+m|\d+m)"
_URL = r"https?://\S+"
# The run or job a GitHub Actions check links to, or a GitLab pipeline or job:
# what `faultlens ci` takes.
_CI_URL = lazy_compile(
    r"https://[^/\s]+/[\w.-]+/[\w.-]+/actions/runs/\d+(?:/job/\d+)?"
    r"|https://[^/\s]+/[\w./-]+?/-/(?:pipelines|jobs)/\d+"
)
_COLUMNS = lazy_compile(r"\s{2,}")

# What a check's name or description says it checks, first match wins: a gate
# that waits for a person or a scanner, a test suite, a deployment, a build.
_KINDS: tuple[tuple[FailureType, str, re.Pattern[str]], ...] = tuple(
    (ft, kind, lazy_compile(words, re.IGNORECASE))
    for ft, kind, words in (
        (
            FailureType.TRUST_GATE,
            "gate",
            r"\b(?:cla|dco|sign-?off|signed|licen[cs]e|codeql|code[- ]scanning|secrets?"
            r"|gitleaks|trufflehog|security|audit|snyk|semgrep|sonar\w*|dependency[- ]review"
            r"|codeowners|reviews?|approval|labels?|changelog|semantic|conventional|policy)\b",
        ),
        (
            FailureType.TEST,
            "test",
            r"\b(?:tests?|spec|specs|e2e|pytest|jest|vitest|mocha|unit|integration|cypress"
            r"|playwright|coverage|codecov)\b",
        ),
        (
            FailureType.INFRA,
            "deploy",
            r"\b(?:deploy\w*|release|publish|docker|image|pages|preview|vercel|netlify"
            r"|terraform|helm|provision\w*)\b",
        ),
        (
            FailureType.COMPILE,
            "build",
            r"\b(?:build|compile|typecheck|type-?check|types|tsc|mypy|pyright|lint|eslint"
            r"|clippy|ruff|fmt|format|prettier|vet|golangci\w*)\b",
        ),
    )
)


def check_kind(name: str, description: str) -> tuple[FailureType, str]:
    """The category a failed check's words name, and the hint's kind; a check
    whose words say nothing is the generic CI failure (`ci`)."""
    text = f"{name} {description}"
    for ft, kind, words in _KINDS:
        if words.search(text):
            return ft, kind
    return FailureType.INFRA, "ci"


@rule(
    id="infra.gh_pr_checks",
    category=FailureType.INFRA,
    tool="gh",
    pattern=rf"^(?P<name>[^\t]{{1,256}})\t(?:fail)\t(?P<elapsed>{_ELAPSED})\t(?P<link>{_URL})?"
    r"(?:\t(?P<desc>[^\t]*))?$"
    rf"|^X  (?P<row>.+?)  +(?P<tlink>{_URL})\s*$",
    triggers=("\tfail\t", "X  "),
    url="https://cli.github.com/manual/gh_pr_checks",
    priority=PRIORITY,
)
def gh_pr_checks(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A pull request's failed check, as `gh pr checks` lists it.

    What it detects: a `fail` row of the table gh prints (cli/cli
    pkg/cmd/pr/checks/output.go): to a pipe or an agent's shell, tab
    separated `NAME<TAB>fail<TAB>ELAPSED<TAB>URL<TAB>DESCRIPTION` (a
    cancelled check is `fail` too); in a terminal, `X  WORKFLOW/NAME
    (EVENT)  DESCRIPTION  ELAPSED  URL` in columns.  Each failed check is
    one record of what its name and description say it checks: a CLA,
    sign-off, code scan, review or label gate is trust_gate, a test suite
    test, a deployment infra, a build, type check or lint compile, any
    other the generic CI failure (infra).  The hint holds the check's URL
    and, when it is a GitHub Actions run or job or a GitLab pipeline or
    job, `ci_url`: `faultlens ci <ci_url>` reads that job's log and places
    its failures at this checkout's lines.

    Example output (`gh pr checks 12`, gh 2.60.0, not a terminal):
        typecheck	fail	41s	https://github.com/acme/shop/actions/runs/77/job/901

    Recipe: by the check's category; the record itself has no file: the
    job's log (`faultlens ci`) says where.  A gate waits for a person.

    References: https://cli.github.com/manual/gh_pr_checks,
    https://github.com/cli/cli/blob/v2.60.0/pkg/cmd/pr/checks/output.go
    """
    if m.group("row") is not None:
        cells = _COLUMNS.split(m.group("row").strip())
        link = m.group("tlink")
        name, rest = cells[0], cells[1:]
        if rest and re.fullmatch(_ELAPSED, rest[-1]):
            rest = rest[:-1]
        description = " ".join(rest)
    else:
        name, link = m.group("name").strip(), m.group("link") or ""
        description = (m.group("desc") or "").strip()
    if not name:
        return None
    ft, kind = check_kind(name, description)
    ci_url = _CI_URL.fullmatch(link) if link else None
    message = f"the check {name} failed" + (f": {description}" if description else "")
    hint = infra_hint(
        kind,
        check=name,
        url=link or None,
        description=description or None,
        ci_url=ci_url.group(0) if ci_url else None,
    )
    if ft is FailureType.TRUST_GATE:
        hint.update(gate="check", waits_for="human")
    return Hit(signal=message, message=message, category=ft, hint=hint, tool="gh")
