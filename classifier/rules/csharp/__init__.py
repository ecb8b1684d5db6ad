"""C# and .NET: compiler errors (mcs, csc/Roslyn through MSBuild and `dotnet
build`), NuGet restore errors, unhandled exceptions, NUnit and `dotnet test`;
one module per kind."""

from __future__ import annotations

from . import build, exceptions, test_runners

ECOSYSTEM = "C#"

__all__ = ["ECOSYSTEM", "build", "exceptions", "test_runners"]
