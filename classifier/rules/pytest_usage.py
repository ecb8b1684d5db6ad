"""pytest refusing its own command line (the rule is pytest.usage_error in
python_test.py):

    ERROR: usage: python -m pytest [options] [file_or_dir] [file_or_dir] [...]
    python -m pytest: error: unrecognized arguments: --cov=parse --cov-report=term-missing
      inifile: /src/parse/pyproject.toml
      rootdir: /src/parse

No test ran.  An option pytest does not know usually belongs to a plugin that
is not installed (`--cov` is pytest-cov's), often set in the project's
config (`addopts`): the cause is a missing package, located on the config's
line that uses the option.  An option no known plugin provides is a mistake
in the command or the config.  `inifile: None` (no config file was found)
names none."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Hit, LineContext

HEAD = lazy_compile(
    r"^(?P<prog>[^:]*\bpy\.?test\b[^:]*): error: unrecognized arguments: (?P<args>.+)$"
)
_INIFILE = lazy_compile(r"^\s+(?:inifile|configfile): (?P<file>\S.*)$")
_ROOTDIR = lazy_compile(r"^\s+rootdir: ")

# The plugins whose options a config names most often, by option prefix.
PLUGINS: tuple[tuple[str, str], ...] = (
    ("--cov", "pytest-cov"),
    ("--no-cov", "pytest-cov"),
    ("--numprocesses", "pytest-xdist"),
    ("--dist", "pytest-xdist"),
    ("-n", "pytest-xdist"),
    ("--timeout", "pytest-timeout"),
    ("--benchmark-", "pytest-benchmark"),
    ("--reruns", "pytest-rerunfailures"),
    ("--html", "pytest-html"),
    ("--asyncio-mode", "pytest-asyncio"),
    ("--randomly-", "pytest-randomly"),
    ("--mypy", "pytest-mypy"),
    ("--doctest-plus", "pytest-doctestplus"),
    ("--env", "pytest-env"),
    ("--flake8", "pytest-flake8"),
    ("--black", "pytest-black"),
    ("--snapshot-update", "syrupy"),
)


def plugin_for(option: str) -> str | None:
    """The plugin that provides a pytest option (`--cov=parse` → pytest-cov)."""
    name = option.split("=", 1)[0]
    for prefix, plugin in PLUGINS:
        if name == prefix or (prefix.endswith(("-", "cov")) and name.startswith(prefix)):
            return plugin
    return None


class PytestUsage:
    """The usage error and the config pytest names under it."""

    max_lines = 6

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.line = ctx.line.strip()
        self.line_no = ctx.line_no
        self.args = m.group("args").split()
        self.config: str | None = None

    def feed(self, line: str, line_no: int) -> bool:
        m = _INIFILE.match(line)
        if m:
            config = m.group("file").strip()
            self.config = None if config == "None" else config  # no config file was found
            return True
        return bool(_ROOTDIR.match(line))

    def finish(self) -> Iterable[Hit]:
        options = [a for a in self.args if a.startswith("-")]
        found = [(o, p) for o in options if (p := plugin_for(o)) is not None]
        hint: dict[str, Any] = {"options": options[:20]}
        where = f" ({self.ctx.resolve(self.config)})" if self.config else ""
        if found:
            option, plugin = found[0]
            hint.update(
                {
                    "cause": "import",
                    "module": plugin,
                    "package": plugin,
                    "config_option": option.split("=", 1)[0],
                }
            )
            message = f"pytest does not know {option}{where}: the plugin {plugin} is not installed"
        else:
            hint["config_option"] = options[0].split("=", 1)[0] if options else ""
            message = f"pytest does not know {' '.join(options) or 'these arguments'}{where}"
        return [
            Hit(
                signal=self.line,
                message=message,
                file=self.config,
                tool="pytest",
                category=FailureType.COMPILE,
                log_line=self.line_no,
                hint=hint,
                key=("pytest", "usage", tuple(options)),
            )
        ]
