"""Java: javac, maven (compiler plugin, surefire, build failures), gradle;
one module per tool."""

from __future__ import annotations

from . import gradle, javac, maven

__all__ = ["gradle", "javac", "maven"]
