"""Rake, Ruby's make: `rake aborted!` and what follows it."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import FALLBACK, Block, Hit, LineContext
from .registry import rule

ECOSYSTEM = "Ruby"

_UNKNOWN_TASK = lazy_compile(r"^Don't know how to build task '(?P<task>[^']+)'")
_COMMAND_FAILED = lazy_compile(
    r"^Command failed with status \((?P<status>\d+)\)(?:: \[(?P<cmd>.*))?"
)
_FRAME = lazy_compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):in ")
_TASKS = lazy_compile(r"^Tasks: (?P<tasks>TOP => .+)$")
RAKEFILES = ("Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb")


class _RakeAborted:
    """The message after `rake aborted!`, the backtrace under it and the
    `Tasks: TOP => x` chain."""

    max_lines = 200

    def __init__(self, ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.message: str | None = None
        self.frames: list[tuple[str, int]] = []
        self.tasks: str | None = None

    def feed(self, line: str, line_no: int) -> bool:
        text = line.strip()
        if self.message is None:
            if text:
                self.message = text
            return True
        if (frame := _FRAME.match(text)) is not None:
            self.frames.append((frame.group("file"), int(frame.group("line"))))
            return True
        if (tasks := _TASKS.match(text)) is not None:
            self.tasks = tasks.group("tasks")
            return True
        if text.startswith("(See full trace by running task with --trace)"):
            return False
        return not text or (not self.frames and self.tasks is None)

    def finish(self) -> Iterable[Hit]:
        message = self.message or "rake aborted!"
        ctx = self.ctx
        at = next(((f, n) for f, n in self.frames if ctx.in_project(f)), None)
        rakefile = next((f for f in RAKEFILES if ctx.exists(f)), None)
        hint = {"tasks": self.tasks} if self.tasks else {}
        if (unknown := _UNKNOWN_TASK.match(message)) is not None:
            hint["task"] = unknown.group("task")
            yield Hit(
                signal=message,
                message=f"rake: no task {unknown.group('task')}",
                file=rakefile,
                log_line=self.log_line,
                code="unknown-task",
                hint=hint,
            )
            return
        failed = _COMMAND_FAILED.match(message)
        file, line = at if at is not None else (rakefile, None)
        yield Hit(
            signal=message,
            message=f"rake: {message}",
            file=file,
            line=line,
            log_line=self.log_line,
            # a task's command that failed only says so: the command's own
            # output above it (a test run, a compiler) is what to read
            confidence=0.5 if failed else 1.0,
            key=(FALLBACK, "rake", message) if failed else None,
            hint=hint,
        )


@rule(
    id="rake.aborted",
    category=FailureType.COMPILE,
    tool="rake",
    pattern=r"^rake aborted!$",
    triggers=("rake aborted!",),
    url="https://ruby.github.io/rake/",
)
def rake_aborted(m: re.Match[str], ctx: LineContext) -> Block:
    """Rake stopped (`rake aborted!`).

    What it detects: the message under `rake aborted!`: a task the Rakefile
    does not define (`Don't know how to build task 'deploy'`: compile, in
    the Rakefile, hint `task`); a task's shell command that failed
    (`Command failed with status (1): [ruby -c lib/x.rb...]`): only a
    summary, at the Rakefile line of the `sh` call, that stands when
    nothing the command printed was classified (the test or compiler
    records explain it); an exception the Rakefile raised (`NameError:
    uninitialized constant Foo`, a LoadError), at its innermost frame in
    the project. The `Tasks: TOP => test` chain goes into the hint.

    Example output (`rake deploy`, rake 13.0.6):
        rake aborted!
        Don't know how to build task 'deploy' (See the list of available tasks with `rake --tasks`)

    Recipe: compile (define or correct the task; the failed command's own
    error is its own record).

    References: https://ruby.github.io/rake/,
    https://ruby.github.io/rake/doc/command_line_usage_rdoc.html
    """
    return _RakeAborted(ctx)
