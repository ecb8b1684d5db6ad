"""Reading a .NET stack trace (mono's and .NET's frames, the exception
line), shared by the unhandled-exception and the test-runner rules."""

from __future__ import annotations

from ...lazyre import lazy_compile
from ..stack import Frame

# `  at Shop.Cart.Total () [0x00028] in /src/Cart.cs:26` (mono) and
# `   at Shop.Cart.Total() in /src/Cart.cs:line 26` (.NET)
FRAME = lazy_compile(
    r"^\s*at (?P<method>.+?)(?: \[0x[0-9a-f]+\])? in (?P<file>(?:[A-Za-z]:)?[^:<>]+?):(?:line )?(?P<line>\d+)\s*$"
)
AT_NO_FILE = lazy_compile(r"^\s*at \S")
EXCEPTION = lazy_compile(r"^\s*(?P<exc>[A-Z][\w.]*(?:Exception|Error)\w*)\s?: (?P<message>.*)$")
LIBRARY = ("/usr/lib/mono/", "Microsoft.NET", "/dotnet/shared/", "<")


def read_frame(line: str) -> Frame | None:
    if m := FRAME.match(line):
        return (m.group("file"), int(m.group("line")))
    return None
