"""A cloud or forge API that refused the job's credentials the permission it needs."""

from __future__ import annotations

import re

from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import PRIORITY, infra_hint


@rule(
    id="infra.cloud_permission",
    category=FailureType.INFRA,
    tool="cloud",
    pattern=r"(?P<msg>Resource not accessible by (?:integration|personal access token)"
    r"|An error occurred \((?P<aws>AccessDenied\w*|UnauthorizedOperation|AuthorizationError)\)"
    r" when calling the (?P<op>\w+) operation: .*"
    r"|\bPERMISSION_DENIED\b.*)",
    triggers=(
        "Resource not accessible by",
        "An error occurred (AccessDenied",
        "An error occurred (UnauthorizedOperation)",
        "An error occurred (AuthorizationError)",
        "PERMISSION_DENIED",
    ),
    url="https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication#modifying-the-permissions-for-the-github_token",
    priority=PRIORITY + 5,
)
def cloud_permission(m: re.Match[str], ctx: LineContext) -> Hit:
    """The job's token or role lacks a permission a cloud or GitHub API needs.

    What it detects: GitHub's `Resource not accessible by integration`
    (the GITHUB_TOKEN's `permissions:` do not grant it), the AWS CLI's
    `An error occurred (AccessDenied) when calling the ListBuckets
    operation: Access Denied` (and AccessDeniedException,
    UnauthorizedOperation), Google Cloud's `PERMISSION_DENIED` status.

    Example output (aws s3 ls, aws-cli 1.45):
        An error occurred (AccessDenied) when calling the ListBuckets operation: Access Denied

    Recipe: infra, permanent (not retried): a human grants the permission
    (the workflow's `permissions:`, the role's policy, the service
    account's IAM binding: hint `operation`).

    References: https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication#modifying-the-permissions-for-the-github_token
    """
    hint = infra_hint("permission", code=m.group("aws"), operation=m.group("op"))
    hint["transient"] = False
    return Hit(
        signal=ctx.line.strip(), message=m.group("msg").strip(), code="permission", hint=hint
    )
