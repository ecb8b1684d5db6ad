"""Vim's compiler plugins: the 'errorformat' that `:compiler NAME` sets.

A project rule may say `compiler = "rubocop"` and get the errorformat of
Vim's own `compiler/rubocop.vim`, read from the installed runtime
($VIMRUNTIME, else the usual places of Vim's and Neovim's runtime, and the
user's ~/.vim and ~/.config/nvim first, as Vim's 'runtimepath' has them).

The plugin is read, not run: classifier/vimcompiler_script.py follows
what a fresh Vim (`vim -u NONE`) does when it sources it — continuation lines, `runtime
compiler/other.vim`, `if`/`elseif`/`else` on `exists()`, `get()`, `has()`
and friends evaluated as in a fresh Vim (no g: or b: variables set),
`CompilerSet`/`setlocal` of 'errorformat' with `=`, `+=`, `^=`, `-=` and
`&`, `let &l:efm = ...` and `execute '...' .. escape(var, ' ')` over string
literals, `join()`ed lists and variables.  A plugin that computes its
errorformat any other way (an autoload function) is reported as unreadable,
with the way out.  tests/test_errorformat_vim.py checks every plugin of the
installed runtime against real Vim.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path

from .lazyre import lazy_compile
from .vimcompiler_script import Reader

NAME = lazy_compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+-]{0,63}$")


class CompilerError(ValueError):
    """No such compiler plugin, or one that cannot be read; one line."""


def runtime_dirs(env: dict[str, str] | None = None) -> list[Path]:
    """Where compiler plugins are looked for, in Vim's order."""
    env = dict(os.environ) if env is None else env
    home = Path(env.get("HOME", "~")).expanduser()
    out = [home / ".vim", home / ".config" / "nvim"]
    runtime = env.get("VIMRUNTIME")
    if runtime:
        out.append(Path(runtime))
    for base in ("/usr/share", "/usr/local/share", "/opt/homebrew/share"):
        vims = sorted(Path(base, "vim").glob("vim[0-9]*"), reverse=True)
        out.extend(vims)
        out.append(Path(base, "nvim", "runtime"))
    seen: list[Path] = []
    for d in out:
        if d not in seen:
            seen.append(d)
    return seen


def find_plugin(name: str, dirs: Sequence[Path] | None = None) -> Path | None:
    """compiler/NAME.vim in the first runtime directory that has it."""
    for d in runtime_dirs() if dirs is None else dirs:
        p = d / "compiler" / f"{name}.vim"
        try:
            if stat.S_ISREG(p.stat().st_mode):
                return p
        except OSError:
            continue
    return None


def errorformat(name: str, dirs: Sequence[Path] | None = None) -> str:
    """The 'errorformat' `:compiler NAME` sets; CompilerError says why not."""
    if not NAME.match(name):
        raise CompilerError(f"`compiler` {name!r} is not a compiler plugin's name")
    search = runtime_dirs() if dirs is None else list(dirs)
    plugin = find_plugin(name, search)
    if plugin is None:
        if not any((d / "compiler").is_dir() for d in search):
            raise CompilerError(
                f"compiler {name!r}: no Vim runtime found (install Vim or Neovim, or set "
                "$VIMRUNTIME); give `errorformat` instead"
            )
        raise CompilerError(f"compiler {name!r}: no compiler/{name}.vim in Vim's runtime")
    reader = Reader(search)
    for d in search:  # every runtime directory's plugin, in order (Vim's DIP_ALL)
        p = d / "compiler" / f"{name}.vim"
        if p == plugin or (p.is_file() and not p.is_symlink()):
            reader.source(p, 0)
    if reader.unreadable:
        raise CompilerError(
            f"compiler {name!r}: {plugin} computes its errorformat with Vim script faultlens "
            f"does not run ({reader.unreadable}); give `errorformat` (Vim: "
            f"`:compiler {name} | echo &efm`)"
        )
    return reader.efm
