"""C# rules for the build: compiler errors (mcs, csc/Roslyn through MSBuild
and `dotnet build`) and NuGet restore errors."""

from __future__ import annotations

import re
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule

_CS_DOCS = "https://learn.microsoft.com/en-us/dotnet/csharp/language-reference/compiler-messages/"

# `'Price' does not contain a definition for 'GetCents'` (Roslyn) or
# "Type `Shop.Price' does not contain a definition for `GetCents'" (mcs)
_NO_DEFINITION = lazy_compile(r"does not contain a definition for [`'](?P<name>\w+)'")
_NOT_IN_CONTEXT = lazy_compile(r"The name [`'](?P<name>\w+)' does not exist in the current context")
_NO_TYPE = lazy_compile(
    r"The type or namespace name [`'](?P<name>[\w.]+)' (?:could not be found|does not exist)"
)


# CS0305: the generic type found where a non-generic one of the name was meant (a using of
# System.Collections removed: `IEnumerator` is System.Collections.Generic.IEnumerator<T>)
_GENERIC_FOUND = lazy_compile(r"Using the generic type [`'](?P<generic>(?:[\w]+\.)*(?P<name>\w+))<")


def _cs_hint(message: str) -> dict[str, Any]:
    for pattern in (_NO_DEFINITION, _NOT_IN_CONTEXT, _NO_TYPE):
        if m := pattern.search(message):
            return {"name": m.group("name")}
    if m := _GENERIC_FOUND.search(message):
        return {"name": m.group("name"), "generic": m.group("generic")}
    return {}


@rule(
    id="csharp.compiler",
    category=FailureType.COMPILE,
    tool="csc",
    pattern=r"^\s*(?P<file>(?:[A-Za-z]:)?[^\s:(][^:(]*?\.(?:cs|csx|razor|cshtml|vb|fs))\((?P<line>\d+)(?:,(?P<column>\d+))?(?:,\d+,\d+)?\): (?:(?P<subcategory>[\w ]+) )?(?P<sev>error|warning) (?P<code>[A-Z]+\d+): (?P<message>.+?)(?: \[(?P<project>[^\]]+\.\w*proj)(?:::[^\]]*)?\])?\s*$",
    triggers=(
        "): error CS",
        "): error FS",
        "): error BC",
        "): error RZ",
        "): warning CS",
        "): warning FS",
    ),
    url=_CS_DOCS,
)
def csharp_compiler(m: re.Match[str], ctx: LineContext) -> Hit:
    """A C# (or F#/VB) compiler error: mcs, csc, MSBuild and `dotnet build`.

    What it detects: `src/Cart.cs(26,56): error CS1061: Type `Shop.Price'
    does not contain a definition for `GetCents' ...` (mono's mcs) and the
    same line as MSBuild prints it, with the project in brackets at the end
    (`D:\\a\\shop\\Shop\\Cart.cs(26,56): error CS1061: 'Price' does not
    contain a definition for 'GetCents' ... [D:\\a\\shop\\Shop\\Shop.csproj]`,
    hint["project"]); indented under the .NET 8 terminal logger's `Shop
    failed with 1 error(s)` line.  Windows and CI-runner paths are mapped
    onto the working tree; MSBuild's repeat of every error after `Build
    FAILED.` is the same record.  hint["name"] is the missing member, name or
    type (CS0305's type used without its type arguments, hint["generic"] the
    generic one the compiler found instead).  Warnings (`warning CS0168`) are warning hits: a failure only when
    warnings failed the run (`-warnaserror`, `TreatWarningsAsErrors`; see
    docs/warnings.md); mcs's
    `(Location of the symbol related to previous error)` lines are not
    records.

    Example output (`mcs -out:shop.exe src/*.cs`, Mono C# compiler 6.8.0.105):
        src/Cart.cs(26,56): error CS1061: Type `Shop.Price' does not contain a definition for `GetCents' and no extension method `GetCents' of type `Shop.Price' could be found. Are you missing an assembly reference?
        Compilation failed: 1 error(s), 0 warnings

    Recipe: compile, escalated with the location and the missing name.

    References: https://learn.microsoft.com/en-us/dotnet/csharp/language-reference/compiler-messages/,
    https://learn.microsoft.com/en-us/visualstudio/msbuild/msbuild-diagnostic-format-for-tasks
    """
    message = m.group("message").strip()
    hint = _cs_hint(message)
    if m.group("project"):
        hint["project"] = m.group("project")
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        file=m.group("file"),
        line=int(m.group("line")),
        column=int(m.group("column")) if m.group("column") else None,
        code=m.group("code"),
        hint=hint,
        warning=m.group("sev") == "warning",
    )


@rule(
    id="csharp.nuget",
    category=FailureType.INFRA,
    tool="nuget",
    pattern=r"^\s*(?P<project>\S.*?\.\w*proj) : error (?P<code>NU\d{4}): (?P<message>.+?)(?: \[[^\]]+\])?\s*$",
    triggers=(": error NU",),
    url="https://learn.microsoft.com/en-us/nuget/reference/errors-and-warnings/nu1101",
)
def csharp_nuget(m: re.Match[str], ctx: LineContext) -> Hit:
    """A NuGet restore error (`dotnet restore`, `dotnet build`, `msbuild -restore`).

    What it detects: `/src/Shop/Shop.csproj : error NU1101: Unable to find
    package Shop.Money. No packages exist with this id in source(s):
    nuget.org` and the other NU1xxx errors (NU1102 no matching version,
    NU1301 the feed cannot be reached): infra, at the project file;
    hint["package"] names the package.  A missing package is escalated, not
    installed: the name comes from the project, and a guess could be a
    typosquat.

    Example output (`dotnet restore`, NuGet's documented NU1101 line; no
    .NET SDK can be installed here):
        /src/Shop/Shop.csproj : error NU1101: Unable to find package Shop.Money. No packages exist with this id in source(s): nuget.org

    Recipe: infra, escalated: the package name, the feeds searched.

    References: https://learn.microsoft.com/en-us/nuget/reference/errors-and-warnings/nu1101,
    https://learn.microsoft.com/en-us/nuget/reference/errors-and-warnings/nu1301
    """
    message = m.group("message").strip()
    hint: dict[str, Any] = {}
    if package := re.search(
        r"Unable to find package '?(?P<package>[\w.-]+?)'?(?:\.? |\.$)", message
    ):
        hint["package"] = package.group("package")
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        file=m.group("project"),
        code=m.group("code"),
        hint=hint,
    )
