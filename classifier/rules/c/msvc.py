"""Microsoft's C/C++ compiler (cl.exe) and linker (link.exe), as MSBuild,
CMake's Visual Studio generators and setuptools on Windows print them."""

from __future__ import annotations

import re
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule

_MSBUILD_PROJECT = lazy_compile(r"\s+\[(?P<project>[^\]]+\.(?:vcxproj|csproj|proj|sln))\]\s*$")


@rule(
    id="c.msvc",
    category=FailureType.COMPILE,
    tool="cl",
    pattern=(
        r"^\s*(?:\d+>)?(?P<file>[^\s(<>|][^(<>|]*?)\((?P<line>\d+)(?:,(?P<column>\d+))?\)\s?:"
        r" (?P<severity>fatal error|error) (?P<code>C\d{4}): (?P<message>.+)$"
        r"|^\s*(?:\d+>)?(?P<object>LINK|[^\s:][^:]*?\.(?:obj|lib|exe|dll)) : (?P<lseverity>fatal error|error)"
        r" (?P<lcode>LNK\d{4}): (?P<lmessage>.+)$"
    ),
    triggers=(": error C", ": fatal error C", " : error LNK", " : fatal error LNK"),
    url="https://learn.microsoft.com/en-us/cpp/build/formatting-the-output-of-a-custom-build-step-or-build-event",
    priority=10,
)
def msvc(m: re.Match[str], ctx: LineContext) -> Hit:
    """An MSVC compiler or linker error.

    What it detects: cl.exe's `file(line): error Cnnnn: message` (and
    `file(line,col)`, `fatal error C1083`), link.exe's `LINK : fatal error
    LNKnnnn: message` and `object.obj : error LNKnnnn: message`, with the
    `N>` prefix of a parallel MSBuild and the ` [project.vcxproj]` MSBuild
    appends (hint `project`). The code is the record's (C2143, LNK2019).
    These tools do not run here: the sample is built from Microsoft's
    documented message format.

    Example output (documented format: MSBuild running cl.exe):
        fastsum.c(7): error C2143: syntax error: missing ';' before '}' [D:\\a\\fastsum\\build\\fastsum.vcxproj]
        LINK : fatal error LNK1181: cannot open input file 'python311.lib'

    Recipe: compile, at the file and line (a linker error at the object,
    with the symbol or library in the message).

    References: https://learn.microsoft.com/en-us/cpp/build/formatting-the-output-of-a-custom-build-step-or-build-event,
    https://learn.microsoft.com/en-us/cpp/error-messages/compiler-errors-1/c-cpp-build-errors
    """
    hint: dict[str, Any] = {"compiler": "msvc"}
    linker = m.group("lcode") is not None
    message = (m.group("lmessage") if linker else m.group("message")).rstrip()
    project = _MSBUILD_PROJECT.search(message)
    if project:
        hint["project"] = project.group("project")
        message = message[: project.start()]
    if linker:
        hint["linker"] = "link.exe"
        obj = m.group("object")
        if obj != "LINK":
            hint["object"] = obj
    line = m.group("line")
    column = m.group("column")
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        file=None if linker else m.group("file").strip(),
        line=int(line) if line else None,
        column=int(column) if column else None,
        code=m.group("lcode") or m.group("code"),
        hint=hint,
    )
