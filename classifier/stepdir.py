"""The folder a CI step's commands ran in, read from its script's `cd`s.

GitHub Actions prints a `run:` step's script inside its group, before the
`shell:` line (actions/runner `Handlers/ScriptHandler.cs`):

    ##[group]Run cd testes/libs && make -s && cd ..
    cd testes/libs && make -s && cd ..
    ../lua -W all.lua
    shell: /usr/bin/bash -e {0}
    ##[endgroup]

A tool in that step prints paths relative to the folder it ran in
(`strings.lua:107`, meaning testes/strings.lua).  `script_folder` follows
the literal `cd`s and `pushd`s of the script, command by command, and names
the folder its last other command ran in, relative to the job's workspace;
None when a `cd` goes where a log cannot tell (a variable, `~`, `-`, an
absolute path, out of the workspace, a `popd`).  The script is only read,
never run: `shlex` splits its words.  Pure.
"""

from __future__ import annotations

import posixpath
import shlex
from collections.abc import Iterable

from .lazyre import lazy_compile

MAX_SCRIPT_LINES = 200  # a longer group is no script the runner printed

# Where one command ends: `&&`, `||`, `;` or `|` outside quotes is close
# enough for a script's `cd`s (a `cd` inside quotes is an argument).
_SEPARATOR = lazy_compile(r"&&|\|\||;|\|")
_WINDOWS_ABSOLUTE = lazy_compile(r"[A-Za-z]:[\\/]")
_CHANGES = frozenset({"cd", "pushd", "popd"})


def _commands(script: Iterable[str]) -> list[list[str]]:
    out: list[list[str]] = []
    for line in script:
        for part in _SEPARATOR.split(line):
            try:
                words = shlex.split(part, comments=True)
            except ValueError:  # an unbalanced quote: not a command we can read
                words = part.split()
            if words:
                out.append(words)
    return out


def _moved(folder: str, words: list[str]) -> str | None:
    """The folder after one `cd`/`pushd` from `folder` (None: unknown)."""
    if words[0] == "popd" or len(words) != 2:
        return None  # `cd` alone goes home; `cd -P x` and the like are not followed
    target = words[1]
    if target.startswith(("/", "~", "$", "-", "`")) or "$" in target:
        return None
    moved = posixpath.normpath(posixpath.join(folder, target))
    return None if moved == ".." or moved.startswith("../") else moved


def script_folder(script: Iterable[str]) -> str | None:
    """The workspace-relative folder the script's last command that is not
    a `cd` ran in ("." for the workspace itself); None when unknown."""
    folder: str | None = "."
    ran_in: str | None = "."
    for words in _commands(script):
        if words[0] in _CHANGES:
            folder = None if folder is None else _moved(folder, words)
        else:
            ran_in = folder
    return ran_in


def in_folder(folder: str | None, printed: str) -> str:
    """A path printed by a tool that ran in `folder`, relative to the
    workspace (the printed path itself when it is absolute, climbs out, or
    the folder is unknown)."""
    if not folder or folder == "." or printed.startswith(("/", "\\", "~")):
        return printed
    if _WINDOWS_ABSOLUTE.match(printed):
        return printed
    joined = posixpath.normpath(posixpath.join(folder, printed))
    return printed if joined.startswith("../") or joined == ".." else joined
