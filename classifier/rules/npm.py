"""npm's own errors about the project's package.json scripts.

    npm error Missing script: "buil"
    npm error
    npm error Did you mean this?
    npm error   npm run build # run the "build" package script
    npm error
    npm error To see a list of scripts, run:
    npm error   npm run

npm says the script is not in package.json: the project's configuration (or
the command that names it) is wrong, nothing in the machine is — compile, on
the `"scripts"` line of the package.json npm read (a workspace's, from the
`location` line npm prints above it).  The same holds for a dependency the
registry does not have (E404) and for a peer dependency conflict (ERESOLVE):
what package.json asks for cannot be installed, on any retry.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..lazyre import lazy_compile
from ..locate import read_in_tree
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext, match_above
from .registry import rule

ECOSYSTEM = "JavaScript"

_PREFIX = r"npm (?:error|ERR!)"
_LOCATION = lazy_compile(rf"^{_PREFIX} location (?P<dir>/.+)$")
_MEANT = lazy_compile(rf"^{_PREFIX}\s{{2,}}(?P<advice>npm \S.*)$")
_OWN_SCRIPT = lazy_compile(r'# run the "(?P<script>[^"]+)" package script$')
_NPM_LINE = lazy_compile(rf"^{_PREFIX}(?: |$)")
MAX_PACKAGE_JSON = 4 * 1024 * 1024
MAX_SCRIPTS = 50
MAX_ADVICE = 5


def _scripts_line(text: str) -> tuple[int, list[str]]:
    """The 1-based line of the top-level `"scripts"` key (1 when there is
    none) and the script names package.json declares."""
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    scripts = data.get("scripts") if isinstance(data, dict) else None
    names = [str(k) for k in scripts][:MAX_SCRIPTS] if isinstance(scripts, dict) else []
    for no, line in enumerate(text.splitlines(), start=1):
        if re.match(r'^\s{0,4}"scripts"\s*:', line):
            return no, names
    return 1, names


class MissingScript:
    """One `Missing script` report, to npm's last line about it."""

    max_lines = 20

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.script = m.group("script")
        where = match_above(ctx, _LOCATION, 3)
        self.folder = where.group("dir").rstrip("/") if where else None
        self.advice: list[str] = []
        self.meaning = False  # inside npm's "Did you mean" candidates

    def feed(self, line: str, line_no: int) -> bool:
        text = line.rstrip()
        if not _NPM_LINE.match(text) or "Missing script:" in text:
            return False
        if text.endswith("Did you mean this?") or text.endswith("Did you mean one of these?"):
            self.meaning = True
        elif self.meaning and (meant := _MEANT.match(text)):
            if len(self.advice) < MAX_ADVICE:
                self.advice.append(meant.group("advice"))
        else:
            self.meaning = False  # npm's blank line after its candidates
        return True

    def finish(self) -> Iterable[Hit]:
        printed = f"{self.folder}/package.json" if self.folder else "package.json"
        file: str | None = self.ctx.resolve(printed)
        text = read_in_tree(Path(self.ctx.cwd), file, MAX_PACKAGE_JSON) if file else None
        line, scripts = _scripts_line(text) if text is not None else (None, [])
        if text is None:
            file = None
        hint: dict[str, Any] = {"script": self.script, "missing_script": self.script}
        if scripts:
            hint["scripts"] = scripts
        if self.advice:
            hint["advice"] = self.advice
        own = [m.group("script") for a in self.advice if (m := _OWN_SCRIPT.search(a))]
        message = f'{file or "package.json"} has no script "{self.script}"'
        if own:
            hint["suggestion"] = own[0]
            message += f'; did you mean "{own[0]}"?'
        return [
            Hit(
                signal=self.signal,
                message=message,
                file=file,
                line=line,
                tool="npm",
                hint=hint,
                log_line=self.log_line,
                key=("npm-missing-script", self.script, file),
            )
        ]


@rule(
    id="npm.missing_script",
    category=FailureType.COMPILE,
    tool="npm",
    pattern=rf'^{_PREFIX} Missing script: "(?P<script>[^"]*)"$',
    triggers=("Missing script:",),
    url="https://docs.npmjs.com/cli/commands/npm-run-script",
)
def npm_missing_script(m: re.Match[str], ctx: LineContext) -> Block:
    """npm running a script package.json does not declare.

    What it detects: `npm error Missing script: "x"` (npm 7 and later; `npm
    ERR!` in older npm) and npm's lines after it: its "Did you mean this?"
    candidates, verbatim in hint["advice"] (npm offers its own commands as
    well as the package's scripts: `npm set # Set a value ...`), the one
    that is a package script in hint["suggestion"]; the script names the
    package.json declares in hint["scripts"].  The record sits on the
    `"scripts"` line of the package.json npm read: the workspace's when npm
    printed its `location` above (`npm run x -w packages/api`), else the
    one in the run's directory.  Compile: a configuration error in npm's own
    words, never infra.

    Example output (`npm run buil`, npm 11.19.1):
        npm error Missing script: "buil"
        npm error
        npm error Did you mean this?
        npm error   npm run build # run the "build" package script
        npm error
        npm error To see a list of scripts, run:
        npm error   npm run

    Recipe: recipes/compile.md — refused: a script is never added or renamed
    automatically, and the command that named it is the caller's; the
    refusal lists npm's suggestion and the scripts package.json has.

    References: https://docs.npmjs.com/cli/commands/npm-run-script,
    https://docs.npmjs.com/cli/using-npm/scripts
    """
    return MissingScript(m, ctx)


# -- a dependency the registry does not have ------------------------------------------
_NOT_FOUND_URL = lazy_compile(r"^https?://[^/]+/(?P<name>(?:@[^/]+(?:/|%2[fF]))?[^/@]+)/?$")


@rule(
    id="npm.package_not_found",
    category=FailureType.COMPILE,
    tool="npm",
    pattern=rf"^{_PREFIX} (?:404 Not Found - GET (?P<url>\S+)|No versions available for (?P<name>\S+))\s*$",
    triggers=(
        "npm error 404 Not Found - GET ",
        "npm ERR! 404 Not Found - GET ",
        "npm error No versions available for ",
        "npm ERR! No versions available for ",
    ),
    url="https://docs.npmjs.com/common-errors#404-not-found",
)
def npm_package_not_found(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A dependency npm's registry does not have (E404, ENOVERSIONS).

    What it detects: `npm error 404 Not Found - GET <registry>/<name>` (the
    name misspelt, never published, or private without a token) and
    `npm error No versions available for <name>` (a name that exists with
    nothing published under it).  The record is on the package's line in
    the package.json of the working directory, when it declares it
    (classifier/manifests.py).  A tarball URL (`/-/name-1.0.0.tgz`) is a
    missing version, not a missing name: this rule leaves it.

    Example output (`npm install`, npm 11.19.1):
        npm error code E404
        npm error 404 Not Found - GET https://registry.npmjs.org/expresss-validatorr
        npm error 404  The requested resource 'expresss-validatorr@^7.0.1' could not be found or you do not have permission to access it.

    Recipe: compile (correct the name or the version in package.json; a
    private package needs the registry's token). hint: package, ecosystem,
    manifest_entry.

    References: https://docs.npmjs.com/common-errors#404-not-found
    """
    from urllib.parse import unquote

    name = m.group("name")
    if m.group("url"):
        found = _NOT_FOUND_URL.match(m.group("url"))
        if found is None:
            return None
        name = unquote(found.group("name"))
    reason = "not in the registry" if m.group("url") else "has no published version"
    hint: dict[str, Any] = {"package": name, "ecosystem": "npm", "manifest_entry": name}
    return Hit(
        signal=ctx.line.strip(),
        message=f"npm: the package {name} {reason}",
        file="package.json" if ctx.exists("package.json") else None,
        code="E404" if m.group("url") else "ENOVERSIONS",
        hint=hint,
    )


# -- a peer dependency conflict (ERESOLVE) ----------------------------------------------
_RESOLVE_TEXT = lazy_compile(rf"^{_PREFIX}(?: (?P<text>.*))?$")
_ROOT_DEP = lazy_compile(
    r'^\s*(?:dev |peer |optional |peerOptional )?(?P<name>(?:@[^@\s/]+/)?[^@\s]+)@"(?P<range>[^"]*)"'
    r" from the root project$"
)
_PEER = lazy_compile(r'^\s*(?:peer |peerOptional )?(?P<need>\S+@"[^"]*") from (?P<by>\S+)$')


class _Eresolve:
    """npm's explanation under `ERESOLVE could not resolve`: what it found,
    the peer requirement it could not meet and the root dependency that
    brought it."""

    max_lines = 200

    def __init__(self, ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.found: str | None = None
        self.need: re.Match[str] | None = None
        self.root: re.Match[str] | None = None
        self.section = ""

    def feed(self, line: str, line_no: int) -> bool:
        m = _RESOLVE_TEXT.match(line.rstrip())
        if m is None:
            return False
        text = (m.group("text") or "").rstrip()
        stripped = text.strip()
        if stripped.startswith("Found: ") and self.found is None:
            self.found = stripped[len("Found: ") :]
        elif stripped in ("Could not resolve dependency:", "Conflicting peer dependency:"):
            self.section = stripped
        elif self.section == "Could not resolve dependency:":
            if self.need is None and (need := _PEER.match(text)) is not None:
                self.need = need
            elif (root := _ROOT_DEP.match(text)) is not None:
                self.root = root
        return True

    def finish(self) -> Iterable[Hit]:
        hint: dict[str, Any] = {"ecosystem": "npm"}
        parts = []
        if self.need is not None:
            parts.append(f"{self.need.group('by')} needs {self.need.group('need')}")
            hint["requirement"] = self.need.group("need")
        if self.found:
            parts.append(f"the tree has {self.found}")
            hint["found"] = self.found
        if self.root is not None:
            name = self.root.group("name")
            hint.update(package=name, manifest_entry=name)
        yield Hit(
            signal=self.signal,
            message="npm: " + ("; ".join(parts) if parts else "dependency conflict (ERESOLVE)"),
            file="package.json"
            if self.root is not None and self.ctx.exists("package.json")
            else None,
            log_line=self.log_line,
            code="ERESOLVE",
            hint=hint,
        )


@rule(
    id="npm.eresolve",
    category=FailureType.COMPILE,
    tool="npm",
    pattern=rf"^{_PREFIX} ERESOLVE (?:could not resolve|unable to resolve dependency tree)\s*$",
    triggers=("ERESOLVE could not resolve", "ERESOLVE unable to resolve"),
    url="https://docs.npmjs.com/cli/configuring-npm/package-json#peerdependencies",
)
def npm_eresolve(m: re.Match[str], ctx: LineContext) -> Block:
    """npm cannot build a dependency tree: a peer dependency conflict.

    What it detects: `npm error ERESOLVE could not resolve` (npm 7 and
    later; `npm ERR! ERESOLVE unable to resolve dependency tree`), with the
    explanation under it: `Found: vitest@4.1.12`, then under `Could not
    resolve dependency:` the peer requirement (`peer vitest@"1.6.1" from
    @vitest/coverage-v8@1.6.1`) and the project's own dependency that
    brings it (`dev @vitest/coverage-v8@"^1.0.0" from the root project`).
    The versions the project asks for conflict: the same on every retry,
    so compile, on that dependency's line of package.json
    (classifier/manifests.py), not infra.

    Example output (`npm install`, npm 10.8.2):
        npm error code ERESOLVE
        npm error ERESOLVE could not resolve
        npm error
        npm error While resolving: @vitest/coverage-v8@1.6.1
        npm error Found: vitest@4.1.12
        npm error Could not resolve dependency:
        npm error peer vitest@"1.6.1" from @vitest/coverage-v8@1.6.1
        npm error node_modules/@vitest/coverage-v8
        npm error   dev @vitest/coverage-v8@"^1.0.0" from the root project

    Recipe: compile (align the versions in package.json; `--legacy-peer-deps`
    only hides the conflict). hint: package, requirement, found,
    manifest_entry.

    References: https://docs.npmjs.com/cli/configuring-npm/package-json#peerdependencies,
    https://docs.npmjs.com/cli/using-npm/config#legacy-peer-deps
    """
    return _Eresolve(ctx)
