"""Repository policy gates: a check that waits for a person, not for a fix
the classifier can make or a retry (a changelog entry, a sign-off, a
signed CLA, a label, a branch's merge rules).  All trust_gate."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext
from .registry import rule

ECOSYSTEM = "CI policy gates"
_TG = FailureType.TRUST_GATE


def _gate(ctx: LineContext, message: str, gate: str, **extra: Any) -> Hit:
    hint: dict[str, Any] = {"gate": gate, "waits_for": "human"}
    hint.update({k: v for k, v in extra.items() if v})
    return Hit(signal=ctx.line.strip(), message=message, code=gate, hint=hint)


# GitHub Actions' `##[error]` and `Error: ` prefixes, which the actions below print through.
_PREFIX = r"^(?:##\[error\]|Error: )?"


@rule(
    id="policy.changelog",
    category=_TG,
    tool="towncrier",
    pattern=_PREFIX
    + r"(?:(?P<towncrier>No new newsfragments found on this branch\.)"
    + r"|No update to (?P<file>\S+) found!)\s*$",
    triggers=("No new newsfragments found", "No update to "),
    url="https://towncrier.readthedocs.io/en/stable/cli.html#towncrier-check",
)
def changelog(m: re.Match[str], ctx: LineContext) -> Hit:
    """A change that needs a changelog entry and has none.

    What it detects: `towncrier check`'s `No new newsfragments found on
    this branch.` (the branch changed files but added no news fragment;
    the files it looked at are listed above it) and the changelog-enforcer
    action's `No update to CHANGELOG.md found!` (its documented failure,
    as `##[error]`/`Error: ` in the job log). A person writes the entry (or
    labels the change as needing none): nothing to retry, nothing the
    classifier can write for them.

    Example output (`towncrier check --compare-with main`, towncrier 26.9.0):
        Looking at these files:
        ----
        1. /tmp/tmp.RUP0YSD0I6/src/tax.py
        ----
        No new newsfragments found on this branch.

    Recipe: trust_gate (a human adds the entry); hint: gate `changelog`,
    file.

    References: https://towncrier.readthedocs.io/en/stable/cli.html#towncrier-check
    """
    if m.group("towncrier"):
        return _gate(ctx, "no news fragment for this change (towncrier check)", "changelog")
    file = m.group("file")
    return _gate(ctx, f"no entry in {file} for this change", "changelog", file=file)


_DCO_COMMIT = lazy_compile(r"^\s*(?P<sha>[0-9a-f]{7,40})\s*$")


class _MissingSignoff:
    """dco-check's `Missing sign-off(s):` and the commits listed under it."""

    max_lines = 2_000

    def __init__(self, ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.commits: list[str] = []

    def feed(self, line: str, line_no: int) -> bool:
        text = line.strip()
        if not text:
            return True
        if c := _DCO_COMMIT.match(text):
            self.commits.append(c.group("sha"))
            return True
        return text.startswith(("no sign-off found", "sign-off not found", "by ")) or (
            line[:1] in (" ", "\t") and bool(self.commits)
        )

    def finish(self) -> Iterable[Hit]:
        count = len(self.commits)
        yield Hit(
            signal=self.signal,
            message=f"{count or 'some'} commit{'s' if count != 1 else ''} without a DCO sign-off"
            " (Signed-off-by)",
            code="dco",
            log_line=self.log_line,
            hint={"gate": "dco", "waits_for": "human", "commits": self.commits[:50]},
        )


@rule(
    id="policy.dco",
    category=_TG,
    tool="dco-check",
    pattern=r"^Missing sign-off\(s\):\s*$",
    triggers=("Missing sign-off(s):",),
    url="https://github.com/christophebedard/dco-check",
)
def dco(m: re.Match[str], ctx: LineContext) -> _MissingSignoff:
    """Commits without the Developer Certificate of Origin sign-off.

    What it detects: dco-check's `Missing sign-off(s):` and the commits it
    lists under it (each `no sign-off found`): the commits lack a
    `Signed-off-by:` trailer. Their author signs them off (`git commit
    --amend -s`, `git rebase --signoff`), a statement only they can make:
    nothing is retried or rewritten automatically. hint `commits`.

    Example output (`dco-check -b main`, dco-check 0.5.1):
        Checking commits: 4428470865e3f24382ec783026472d635ff0c612..3f1d9a2ec8eb08b04581d5cbd4fec44e85f92b52

        Missing sign-off(s):

                3f1d9a2ec8eb08b04581d5cbd4fec44e85f92b52
                        no sign-off found

    Recipe: trust_gate (the author signs the commits off).

    References: https://github.com/christophebedard/dco-check,
    https://developercertificate.org/
    """
    return _MissingSignoff(ctx)


@rule(
    id="policy.cla",
    category=_TG,
    tool="cla-assistant",
    pattern=_PREFIX
    + r"(?P<message>[Cc]ommitters of [Pp]ull [Rr]equest (?:number )?#?(?P<pr>\d+) have to sign the CLA\b.*)$",
    triggers=("have to sign the CLA",),
    url="https://github.com/contributor-assistant/github-action",
)
def cla(m: re.Match[str], ctx: LineContext) -> Hit:
    """A Contributor License Agreement not signed by every committer.

    What it detects: the CLA Assistant action's failure, `Committers of
    pull request N have to sign the CLA` (and its older wording
    `committers of Pull Request number N have to sign the CLA`, from the
    action's source), as `##[error]`/`Error: ` in the job log. This does
    not run here: the sample is built from the action's message format.

    Example output (documented format, GitHub Actions job log):
        ##[error]Committers of pull request 42 have to sign the CLA

    Recipe: trust_gate (the committers sign; a legal step); hint: pull_request.

    References: https://github.com/contributor-assistant/github-action
    """
    return _gate(ctx, m.group("message").strip(), "cla", pull_request=int(m.group("pr")))


@rule(
    id="policy.required_labels",
    category=_TG,
    tool="required-labels",
    pattern=_PREFIX
    + r"Label error\. Requires (?P<mode>exactly|at least|at most|\w+) (?P<count>\d+) of: "
    + r"(?P<labels>.*?)(?:\. Found: (?P<found>.*))?$",
    triggers=("Label error. Requires ",),
    url="https://github.com/mheap/github-action-required-labels",
)
def required_labels(m: re.Match[str], ctx: LineContext) -> Hit:
    """A pull request without the labels the repository requires.

    What it detects: github-action-required-labels' failure, `Label error.
    Requires exactly 1 of: semver:patch, semver:minor. Found: bug` (also
    `at least`/`at most`), as `##[error]` in the job log: a maintainer
    chooses the label. This does not run here: the sample is built from
    the action's message format (its source and README).

    Example output (documented format, GitHub Actions job log):
        ##[error]Label error. Requires exactly 1 of: semver:patch, semver:minor, semver:major. Found: bug

    Recipe: trust_gate (a maintainer labels the pull request); hint:
    required, found.

    References: https://github.com/mheap/github-action-required-labels
    """
    required = [x.strip() for x in m.group("labels").split(",") if x.strip()]
    found = [x.strip() for x in (m.group("found") or "").split(",") if x.strip()]
    return _gate(
        ctx,
        f"the pull request needs {m.group('mode')} {m.group('count')} of the labels "
        + ", ".join(required),
        "labels",
        required=required,
        found=found,
    )


@rule(
    id="policy.merge_blocked",
    category=_TG,
    tool="gh",
    pattern=r"(?:Pull request (?P<pr>\S+?#\d+|#\d+) is not mergeable: |GraphQL: )"
    r"the base branch policy prohibits the merge",
    triggers=("base branch policy prohibits the merge",),
    url="https://cli.github.com/manual/gh_pr_merge",
)
def merge_blocked(m: re.Match[str], ctx: LineContext) -> Hit:
    """A merge the branch's protection rules refuse: required reviews,
    required status checks, signed commits, a merge queue.

    What it detects: `gh pr merge`'s `X Pull request o/r#9 is not
    mergeable: the base branch policy prohibits the merge.` and the API's
    `GraphQL: the base branch policy prohibits the merge
    (mergePullRequest)`. The rules wait for people (an approving review, a
    maintainer's `--admin`) or for checks that run elsewhere: no retry.
    This does not run here (it needs GitHub): the sample is built from the
    format gh prints.

    Example output (documented format, `gh pr merge 9 --squash`):
        X Pull request o/r#9 is not mergeable: the base branch policy prohibits the merge.

    Recipe: trust_gate (the required reviews or checks, by a human).

    References: https://cli.github.com/manual/gh_pr_merge,
    https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-protected-branches/about-protected-branches
    """
    return _gate(
        ctx,
        "the branch's protection rules refuse the merge (required reviews or status checks)",
        "branch_policy",
        pull_request=m.group("pr"),
    )


@rule(
    id="policy.pr_size",
    category=_TG,
    tool="pr-size-labeler",
    pattern=r"PR is xl, please, shorten this!\s*$",
    triggers=("PR is xl, please, shorten this!",),
    url="https://github.com/CodelyTV/pr-size-labeler",
)
def pr_size(m: re.Match[str], ctx: LineContext) -> Hit:
    """A pull request over the size its repository allows.

    What it detects: pr-size-labeler's `PR is xl, please, shorten this!`
    (with `fail_if_xl: 'true'`, once it labelled the pull request xl; its
    `Total modifications (additions + deletions): N` is above), anywhere on
    the line: the action's stderr follows the API's answer to its comment,
    which ends without a line break. The author splits the change, or a
    maintainer accepts its size: nothing to retry or fix here.

    Example output (CodelyTV/pr-size-labeler@4ec6770 against a loopback
    stand-in of the GitHub API, in a GitHub Actions job log):
        Total modifications (additions + deletions): 1840
        Labeling pull request with size/xl
        {"id": 1, "body": "This PR exceeds …", "html_url": "…"}PR is xl, please, shorten this!
        ##[error]Process completed with exit code 1.

    Recipe: trust_gate (a person splits the pull request or accepts it).

    References: https://github.com/CodelyTV/pr-size-labeler
    """
    return Hit(
        signal="PR is xl, please, shorten this!",
        message="the pull request is over the repository's size limit (labelled xl)",
        code="pr_size",
        hint={"gate": "pr_size", "waits_for": "human"},
    )
