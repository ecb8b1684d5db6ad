"""Infra rules for provisioning and CI: terraform, GitHub Actions steps."""

from __future__ import annotations

import re

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext, lines_above, match_above
from ..registry import rule
from .common import (
    PRIORITY,
    infra_hint,
)

# -- terraform -------------------------------------------------------------------

_TF_HEADER = lazy_compile(r"^(?:│\s*)?(?P<level>Error|Warning): (?P<message>.+?)\s*$")
_TF_WITH = lazy_compile(r"^(?:│\s*)?\s*with (?P<resource>[\w.\[\]\"-]+),\s*$")
_TF_TRANSIENT = lazy_compile(
    r"StatusCode: (?:5\d\d|429)|\b(?:429|50[0234])\b|Throttl|RequestLimitExceeded|timeout|timed out"
    r"|connection reset|connection refused",
    re.IGNORECASE,
)


def _tf_header(line: str) -> re.Match[str] | None:
    """A diagnostic's `Error:`/`Warning:` heading, boxed (`│ `) or not."""
    return _TF_HEADER.match(line.strip() if not line.startswith("│") else line)


@rule(
    id="infra.terraform",
    category=FailureType.INFRA,
    tool="terraform",
    pattern=r"^(?:│\s*)?\s+on (?P<file>[^\s,]+\.tf(?:\.json)?) line (?P<line>\d+)(?:, in (?P<block>.+?))?:\s*$",
    triggers=(" line ",),
    url="https://developer.hashicorp.com/terraform/cli/commands/apply",
    priority=PRIORITY,
)
def terraform(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A Terraform error diagnostic (plan, apply, validate).

    What it detects: the diagnostic block `Error: <summary>` followed by
    `with aws_instance.web,` and `on main.tf line 10, in resource ...:`,
    with or without the `╷ │ ╵` box (colour / -no-color).  The record is
    placed at that file and line; a Warning block is not a failure.

    Example output (`terraform validate`, Terraform v1.11.4):
        │ Error: Reference to undeclared input variable
        │
        │   on main.tf line 11, in output "endpoint":

    Recipe: infra: a configuration error (undeclared variable, bad
    argument, an API's 4xx) is permanent and escalated at main.tf:N with
    the resource; a provider's 5xx / 429 / timeout is transient.

    References: https://developer.hashicorp.com/terraform/cli/commands/apply
    """
    header = None
    resource = None
    for prev in lines_above(ctx, 12):
        if resource is None:
            w = _TF_WITH.match(prev)
            if w:
                resource = w.group("resource")
                continue
        h = _tf_header(prev)
        if h:
            header = h
            break
    if header is None or header.group("level") != "Error":
        return None
    message = header.group("message")
    kind = "terraform-transient" if _TF_TRANSIENT.search(message) else "terraform"
    hint = infra_hint(kind, resource=resource, block=m.group("block"))
    hint["transient"] = kind == "terraform-transient"
    return Hit(
        signal=f"Error: {message}",
        message=message,
        file=m.group("file"),
        line=int(m.group("line")),
        hint=hint,
    )


_TF_ON = lazy_compile(r"^(?:│\s*)?\s+on \S+\.tf(?:\.json)? line \d+")


@rule(
    id="infra.terraform_init",
    category=FailureType.INFRA,
    tool="terraform",
    pattern=r'^(?:│\s*)?\s*terraform init\s*$|"terraform init"',
    triggers=("terraform init",),
    url="https://developer.hashicorp.com/terraform/cli/commands/init",
    priority=PRIORITY,
)
def terraform_init(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A Terraform error that names no file and asks for `terraform init`.

    What it detects: an `Error: <summary>` diagnostic (with or without the
    `╷ │ ╵` box) whose text tells the user to run `terraform init`: a
    provider not installed ("Missing required provider"), a backend not
    initialised, a lock file out of date.  It has no `on FILE line N`
    (a diagnostic that has one is infra.terraform's, at that line).  The
    rule reads the line that names `terraform init` (alone on its line, or
    quoted) and looks back for its diagnostic's heading.

    Example output (`terraform validate -no-color`, Terraform v1.11.4):
        Error: Missing required provider

        This configuration requires provider registry.terraform.io/hashicorp/null,
        but that provider isn't available. You may be able to install it
        automatically by running:
          terraform init

    Recipe: infra, permanent: escalated with the command to run (hint
    suggested_command: `terraform init`); the backoff retry cannot help.

    References: https://developer.hashicorp.com/terraform/cli/commands/init
    """
    header = _tf_header(ctx.line)
    if header is None:
        for prev in lines_above(ctx, 25):
            if _TF_ON.match(prev) or prev.strip() == "╵":
                return None  # another diagnostic's: placed by infra.terraform, or ended
            header = _tf_header(prev)
            if header is not None:
                break
    if header is None or header.group("level") != "Error":
        return None
    message = header.group("message")
    return Hit(
        signal=f"Error: {message}",
        message=message,
        code="terraform-init",
        # not "command": that key is the run's own command line (re-run to verify)
        hint=infra_hint("terraform-init", suggested_command="terraform init"),
    )


# -- CI ----------------------------------------------------------------------------

_GROUP_RUN = lazy_compile(r"##\[group\]Run (?P<step>.+?)\s*$")


@rule(
    id="infra.github_actions",
    category=FailureType.INFRA,
    tool="github-actions",
    pattern=r"##\[error\]Process completed with exit code (?P<code>\d+)\.?",
    triggers=("##[error]Process completed with exit code",),
    url="https://docs.github.com/en/actions/monitoring-and-troubleshooting-workflows/using-workflow-run-logs",
    priority=PRIORITY,
)
def github_actions(m: re.Match[str], ctx: LineContext) -> Hit:
    """A GitHub Actions step that failed (the CI pipeline went red).

    What it detects: `##[error]Process completed with exit code N.` in a
    job's log, with the step's command from the `##[group]Run ...` line
    above it.

    Example output (raw job log; documented format):
        2026-01-20T10:25:04.4410000Z ##[error]Process completed with exit code 1.

    Recipe: infra, permanent: escalated with the step and exit code.  When
    the step's own output holds a more specific failure (a test, a compile
    error), that record says what to fix; this one says which step failed.
    Confidence 0.7 for that reason.

    References: https://docs.github.com/en/actions/monitoring-and-troubleshooting-workflows/using-workflow-run-logs
    """
    g = match_above(ctx, _GROUP_RUN, 200, search=True)
    step = g.group("step") if g else None
    signal = ctx.line[ctx.line.index("##[error]") :].strip()
    return Hit(
        signal=signal,
        message=signal.removeprefix("##[error]"),
        confidence=0.7,
        hint=infra_hint("ci", exit_code=int(m.group("code")), step=step),
    )
