"""Plugin rules for the editors' start-up: Vim's and Neovim's `Error
detected while processing ...` with the errors of the vimrc / init.lua
lines that load a plugin (a Lua module not found, a plugin manager's
function or command that does not exist)."""

from __future__ import annotations

import re
from typing import Any

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..registry import rule
from .common import PRIORITY

_LINE = lazy_compile(r"^line\s+(?P<line>\d+):\s*$")
_ERROR = lazy_compile(r"^(?P<code>E\d+): (?P<message>.+?)\s*$")
_LUA_AT = lazy_compile(r"(?P<file>[^\s:\[\]]+\.lua):(?P<line>\d+): ")
_MODULE = lazy_compile(r"module '(?P<module>[^']+)' not found")
_UNKNOWN = lazy_compile(
    r"Unknown function: (?P<plugin>\w+)#|Not an editor command: (?P<command>\w+)"
)
_DETAIL = lazy_compile(r"^\s|^stack traceback:|^Press ENTER|^\S.*\bin main chunk")


@rule(
    id="plugin.vim_startup",
    category=FailureType.PLUGIN_STARTUP,
    tool="vim",
    pattern=r"^Error detected while processing (?P<source>.+?):\s*$|^E5108: Error executing lua ",
    triggers=("Error detected while processing ", "E5108: Error executing lua "),
    url="https://neovim.io/doc/user/lua.html#lua-require",
    priority=PRIORITY,
)
def vim_startup(m: re.Match[str], ctx: LineContext) -> _VimErrors:
    """Vim or Neovim failing to load a plugin at start-up.

    What it detects: `Error detected while processing /home/u/.vimrc:`
    followed by `line    3:` and `E117: Unknown function: plug#begin` /
    `E492: Not an editor command: Plug 'tpope/vim-fugitive'` (a plugin
    manager that is not installed: one record for the plugin, at the
    first line), and Neovim's `E5113: Error while calling lua chunk:
    .../init.lua:3: module 'telescope' not found:` and `E5108: Error
    executing lua [string ":lua"]:1: module 'lualine' not found:` (the
    module's search list and the stack traceback belong to it).

    Example output (`nvim --headless --clean -u nvim/init.lua +qa`, NVIM v0.7.2):
        Error detected while processing /work/app/nvim/init.lua:
        E5113: Error while calling lua chunk: /work/app/nvim/init.lua:3: module 'telescope' not found:

    Recipe: plugin_startup: install the named plugin with the project's
    plugin manager when it declares it, else report it at the line that
    loads it; the editor starts without it.

    References: https://neovim.io/doc/user/lua.html#lua-require, https://vimhelp.org/message.txt.html#E117
    """
    source = m.group("source")
    block = _VimErrors(source if source and source != "command line" else None)
    if source is None:
        block.feed(ctx.line, ctx.line_no)
    return block


class _VimErrors:
    """The errors after one `Error detected while processing` header."""

    max_lines = 400

    def __init__(self, source: str | None) -> None:
        self.source = source
        self.line: int | None = None
        self.hits: dict[str, Hit] = {}

    def feed(self, line: str, line_no: int) -> bool:
        text = line.rstrip()
        at = _LINE.match(text)
        if at:
            self.line = int(at.group("line"))
            return True
        err = _ERROR.match(text)
        if err:
            self._error(err, text, line_no)
            return True
        return bool(_DETAIL.match(line)) and bool(text)

    def _error(self, err: re.Match[str], text: str, line_no: int) -> None:
        message = err.group("message")
        file, lnum = self.source, self.line
        lua = _LUA_AT.search(message)
        if lua and not lua.group("file").startswith("..."):
            file, lnum = lua.group("file"), int(lua.group("line"))
        elif lua:
            lnum = int(lua.group("line"))
        hint: dict[str, Any] = {
            "editor": "neovim" if err.group("code").startswith("E51") else "vim"
        }
        module = _MODULE.search(message)
        unknown = _UNKNOWN.search(message)
        if module:
            plugin = module.group("module")
            hint.update(module=plugin, plugin=plugin)
        elif unknown:
            plugin = (unknown.group("plugin") or unknown.group("command") or "").lower()
            hint["plugin"] = plugin
        else:
            plugin = f"{err.group('code')}:{message}"
        if plugin in self.hits:
            return  # the same missing plugin's next line (`Plug ...` after `plug#begin()`)
        self.hits[plugin] = Hit(
            signal=text.strip(),
            message=message.rstrip(":"),
            file=file,
            line=lnum,
            code=err.group("code"),
            log_line=line_no,
            hint=hint,
        )

    def finish(self) -> list[Hit]:
        return list(self.hits.values())
