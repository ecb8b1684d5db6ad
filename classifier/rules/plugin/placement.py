"""Placing plugin records once the output has been read: a manifest's JSON
error at its line and column (for tools that print only an offset, or
nothing), a missing dependency at the line of the config that imports it,
an unknown hook at its `def`.  Reads files only inside the working tree,
bounded in size."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from ...locate import read_in_tree
from ...taxonomy import FailureType

if TYPE_CHECKING:
    from ...record import FailureRecord

MAX_MANIFEST_BYTES = 2 << 20
# The configuration files that name a tool's plugins, looked in (at the
# working directory's top) for a missing plugin whose own message names no
# config, or names a file of the tool's (prettier's `noop.js`).
PLUGIN_CONFIGS: tuple[str, ...] = (
    ".prettierrc",
    ".prettierrc.json",
    ".prettierrc.yaml",
    ".prettierrc.yml",
    "prettier.config.js",
    "prettier.config.mjs",
    ".stylelintrc",
    ".stylelintrc.json",
    ".stylelintrc.yaml",
    ".stylelintrc.yml",
    "stylelint.config.js",
    "stylelint.config.mjs",
    "eslint.config.js",
    "eslint.config.mjs",
    ".eslintrc",
    ".eslintrc.json",
    ".eslintrc.js",
    ".eslintrc.cjs",
    ".eslintrc.yml",
    "babel.config.js",
    "babel.config.json",
    ".babelrc",
    "webpack.config.js",
    "webpack.config.mjs",
    ".rubocop.yml",
    "pytest.ini",
    "tox.ini",
    "setup.cfg",
    "pyproject.toml",
    "mypy.ini",
    "package.json",
)


def offset_to_line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset in text."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1


def json_error_at(text: str) -> tuple[int, int, str] | None:
    """Where Python's json parser stops in text (line, column, message), or
    None when the text is valid JSON."""
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return exc.lineno, exc.colno, exc.msg
    return None


def find_text_line(text: str, needle: str, *, quoted: bool = True) -> tuple[int, int] | None:
    """The first line (and column) where `needle` appears, quoted when asked."""
    candidates = [f'"{needle}"', f"'{needle}'"] if quoted else [needle]
    best: int | None = None
    for c in candidates:
        i = text.find(c)
        if i >= 0 and (best is None or i < best):
            best = i
    if best is None:
        return None
    return offset_to_line_col(text, best)


def place_records(records: Iterable[FailureRecord], cwd: str | os.PathLike[str]) -> None:
    """Give plugin_startup records their line in the manifest or config.

    A manifest JSON error goes to its line/column (from the printed offset,
    else from parsing the manifest); a missing dependency to the config
    line that names it; an unknown hook to its `def`.
    """
    base = Path(cwd)
    for rec in records:
        _loader_is_a_plugin(rec)
        if rec.failure_type == FailureType.PLUGIN_STARTUP and rec.source_line is None:
            _to_naming_config(rec, base)
        if rec.failure_type != FailureType.PLUGIN_STARTUP or not rec.source_file:
            continue
        if rec.source_line is not None and "position" not in rec.hint:
            continue
        hint = rec.hint
        manifest = hint.get("manifest")
        if (
            isinstance(manifest, str)
            and PurePosixPath(manifest).name == PurePosixPath(rec.source_file).name
        ):
            hint["manifest"] = rec.source_file  # as resolved against the cwd
        text = read_in_tree(base, rec.source_file, MAX_MANIFEST_BYTES)
        if text is None:
            continue
        where: tuple[int, int] | None = None
        if "json_error" in hint:
            pos = hint.get("position")
            if rec.source_line is not None:
                continue
            if isinstance(pos, int):
                where = offset_to_line_col(text, pos)
            else:
                err = json_error_at(text)
                if err:
                    where = (err[0], err[1])
        elif isinstance(hint.get("hook_command"), str):  # an agent hook's settings entry
            where = find_text_line(text, hint["hook_command"], quoted=False)
        elif isinstance(hint.get("hook"), str):
            where = find_text_line(text, f"def {hint['hook']}(", quoted=False)
        elif isinstance(hint.get("dependency"), str):
            where = find_text_line(text, hint["dependency"])
        if where:
            rec.source_line, rec.source_column = where


def _to_naming_config(rec: FailureRecord, base: Path) -> None:
    """A missing plugin whose record has no file, or a file that does not
    name it: put it at the first project config that names the plugin."""
    dep = rec.hint.get("dependency")
    if not isinstance(dep, str) or not dep:
        return
    if rec.source_file:
        own = read_in_tree(base, rec.source_file, MAX_MANIFEST_BYTES)
        if own is not None and dep in own:
            return  # its own file names it: the line is found below
    for name in PLUGIN_CONFIGS:
        text = read_in_tree(base, name, MAX_MANIFEST_BYTES)
        if text is None:
            continue
        where = find_text_line(text, dep) or find_text_line(text, dep, quoted=False)
        if where:
            rec.source_file = name
            rec.source_line, rec.source_column = where
            rec.hint["manifest"] = name
            return


def _loader_is_a_plugin(rec: FailureRecord) -> None:
    """A bundler that cannot resolve one of its loaders or plugins
    (webpack's `Module not found: Error: Can't resolve 'babel-loader'`):
    the build's configuration names a plugin that is not installed, a
    plugin_startup failure at that configuration, not the code's."""
    module = rec.hint.get("module")
    if rec.failure_type != FailureType.COMPILE or not isinstance(module, str):
        return
    if not (rec.rule or "").startswith("webpack") or not _is_loader(module):
        return
    from ...precedence import recategorise

    recategorise(rec, FailureType.PLUGIN_STARTUP, "the bundler's configuration names it")
    rec.hint["dependency"] = module
    rec.hint["plugin"] = module
    rec.hint["ecosystem"] = "npm"
    if rec.source_file and not rec.source_file.endswith(
        ("webpack.config.js", "webpack.config.mjs")
    ):
        rec.source_file, rec.source_line = (
            None,
            None,
        )  # the entry point that asked: not where it goes


def _is_loader(module: str) -> bool:
    from .dependencies import is_plugin_package

    name = module.split("!")[0].split("?")[0]
    return name.endswith("-loader") or is_plugin_package(name)
