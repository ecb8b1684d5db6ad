"""What the Java rules share: expected/actual from an assertion message, the
source file of a class in a Maven/Gradle layout, a dependency that could
not be resolved."""

from __future__ import annotations

import re

from ...lazyre import lazy_compile
from ..base import LineContext

_EXPECTED = lazy_compile(
    r"expected:? ?<(?P<expected>.*?)> but was:? ?<(?P<actual>.*?)>"
    r"|expected \[(?P<expected2>.*?)\] but found \[(?P<actual2>.*?)\]"
)
RESOLUTION = lazy_compile(
    r"could not be resolved|Could not resolve dependencies|Could not transfer artifact|in offline mode",
    re.IGNORECASE,
)


def expected_actual(message: str) -> dict[str, str]:
    m = _EXPECTED.search(message)
    if not m:
        return {}
    return {
        "expected": m.group("expected")
        if m.group("expected") is not None
        else m.group("expected2"),
        "actual": m.group("actual") if m.group("actual") is not None else m.group("actual2"),
    }


def source_of(ctx: LineContext, fqcn: str, filename: str) -> str:
    """The source file of class `fqcn` (in a frame: `filename`) in a
    Maven/Gradle layout, when it exists under the working directory; the file
    name as printed otherwise."""
    package = fqcn.rsplit(".", 1)[0] if "." in fqcn else None
    folder = package.replace(".", "/") + "/" if package else ""
    for root in ("src/test/java/", "src/main/java/", "src/", ""):
        candidate = f"{root}{folder}{filename}"
        if ctx.exists(candidate):
            return candidate
    return filename
