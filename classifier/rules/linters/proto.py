"""buf lint's findings (Protocol Buffers) in its default text format."""

from __future__ import annotations

import re

from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule


@rule(
    id="linters.buf_lint",
    category=FailureType.COMPILE,
    tool="buf",
    pattern=r"^(?P<file>[^\s:][^:]*\.proto):(?P<line>\d+):(?P<col>\d+):(?P<message>\S.*)$",
    triggers=(".proto:",),
    url="https://buf.build/docs/lint/overview/",
    priority=20,
)
def buf_lint(m: re.Match[str], ctx: LineContext) -> Hit:
    """A buf lint (or buf build) problem in a .proto file.

    What it detects: `proto/shop/v1/order.proto:5:9:Message name
    "order_item" should be PascalCase, such as "OrderItem".` (no space after
    the column: buf's text format).

    Example output (`buf lint`, buf 1.75.0):
        proto/shop/v1/order.proto:6:10:Field name "productId" should be lower_snake_case, such as "product_id".

    Recipe: compile (rename as the message suggests; hint["suggestion"]
    when it names one).

    References: https://buf.build/docs/lint/overview/, https://buf.build/docs/lint/rules/
    """
    message = m.group("message").strip()
    hint: dict[str, object] = {}
    such = re.search(r'such as "([^"]+)"', message)
    if such:
        hint["suggestion"] = such.group(1)
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        file=m.group("file"),
        line=int(m.group("line")),
        column=int(m.group("col")),
        hint=hint,
    )
