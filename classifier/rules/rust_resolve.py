"""cargo's dependency resolution errors (rule rust.cargo_resolve, in rust.py):
which dependency could not be found, and why, in cargo's own words.

    error: no matching package named `serde` found
    location searched: crates.io index
    required by package `demo v0.1.0 (/src/demo)`
    As a reminder, you're using offline mode (--offline) which can ...

    error: no matching package found
    searched package name: `sered`
    perhaps you meant:      serde
    location searched: directory source `/src/demo/vendor` (...)
    required by package `demo v0.1.0 (/src/demo)`

cargo names the cause itself: "perhaps you meant" is a typo in the manifest
(compile, at the dependency's line in Cargo.toml, the suggestion as advice);
"you're using offline mode" without a suggestion is a registry cache that
does not hold the crate (infra: nothing in the project is wrong, the machine
lacks the index or network); neither, a name the registry searched does not
have (compile: the manifest names a crate that does not exist).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext

HEAD = lazy_compile(r"^error: no matching package (?:named `(?P<name>[^`]+)` )?found$")
_SEARCHED_NAME = lazy_compile(r"^searched package name: `(?P<name>[^`]+)`$")
_MEANT = lazy_compile(r"^perhaps you meant:\s+(?P<names>.+)$")
_LOCATION = lazy_compile(r"^location searched: (?P<where>.+)$")
_REQUIRED = lazy_compile(r"^required by package `(?P<pkg>[^`(]+?)\s*(?:\((?P<dir>[^)]+)\))?`$")
_OFFLINE = "you're using offline mode"
_FOLLOWS = (
    "searched package name:",
    "perhaps you meant:",
    "location searched:",
    "required by package",
    "As a reminder,",
    "version required:",
    "candidate versions found",
    "    ... which satisfies",
)


class CargoResolve:
    """One `no matching package` report, read to its last line."""

    max_lines = 40

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.head = ctx.line.strip()
        self.line_no = ctx.line_no
        self.ctx = ctx
        self.name: str | None = m.group("name")
        self.meant: list[str] = []
        self.where = ""
        self.package = ""
        self.folder: str | None = None
        self.offline = False
        self.lines = [self.head]

    def feed(self, line: str, line_no: int) -> bool:
        text = line.strip()
        if not text.startswith(_FOLLOWS) and not (
            self.lines[-1].startswith("required by") and text.startswith("... ")
        ):
            return False
        self.lines.append(text)
        if m := _SEARCHED_NAME.match(text):
            self.name = m.group("name")
        elif m := _MEANT.match(text):
            self.meant = [n.strip() for n in m.group("names").split(",") if n.strip()]
        elif m := _LOCATION.match(text):
            self.where = m.group("where")
        elif (m := _REQUIRED.match(text)) and not self.package:
            self.package = m.group("pkg").strip()
            self.folder = m.group("dir")
        elif _OFFLINE in text:
            self.offline = True
        return True

    def finish(self) -> Iterable[Hit]:
        name = self.name or "?"
        hint: dict[str, Any] = {"package": name, "ecosystem": "cargo", "manifest_entry": name}
        if self.where:
            hint["searched"] = self.where
        if self.package:
            hint["required_by"] = self.package
        manifest = None
        if self.folder:
            manifest = self.ctx.resolve(self.folder.rstrip("/") + "/Cargo.toml")
        if self.meant:
            hint["advice"] = [f"perhaps you meant: {', '.join(self.meant)}"]
            category = FailureType.COMPILE
            message = f"no crate named `{name}`: perhaps you meant {' or '.join(self.meant)}"
        elif self.offline:
            category = FailureType.INFRA
            hint.update({"kind": "offline", "transient": False, "offline": True})
            message = f"`{name}` is not in the offline registry cache (cargo --offline)"
        else:
            category = FailureType.COMPILE
            message = f"no crate named `{name}` in {self.where or 'the registry'}"
        return [
            Hit(
                # cargo's two wordings, as one (the name is what matters)
                signal=f"error: no matching package named `{name}` found",
                message=message,
                file=manifest,
                tool="cargo",
                category=category,
                hint=hint,
                log_line=self.line_no,
                key=("cargo-resolve", name, self.package),
            )
        ]
