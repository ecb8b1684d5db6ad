"""Reading a CI service's JSON answers: each value checked for its type, a
wrong shape one line naming the service (GitHub's and GitLab's alike)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .http import RemoteError


@dataclass(frozen=True, slots=True)
class Answers:
    service: str  # "GitHub", "GitLab"

    def obj(self, data: Any, what: str) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise RemoteError(f"{self.service}'s answer for the {what} is not an object")
        return data

    def items(self, data: Any, what: str) -> list[Any]:
        if not isinstance(data, list):
            raise RemoteError(f"{self.service}'s answer has no list of {what}")
        return data

    @staticmethod
    def text(data: Mapping[str, Any], key: str) -> str:
        value = data.get(key)
        return value if isinstance(value, str) else ""

    def number(self, data: Mapping[str, Any], key: str) -> int:
        value = data.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise RemoteError(f"{self.service}'s answer has no numeric {key!r}")
        return value
