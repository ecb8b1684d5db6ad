"""Go: `go test`'s report (each failed test at its log line or panic frame,
a data race at its first project frame) and the failed package's summary.

Part of the `go` family (classifier/rules/go.py imports it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import FALLBACK, Block, Hit, LazyPattern, LineContext, find_above
from .causes import environment_cause
from .registry import rule

ECOSYSTEM = "Go"

# `# shop/cart [shop/cart.test]`: the package go build / go test reports on
PACKAGE_HEADER = lazy_compile(r"^# (?P<package>\S+)(?: \[(?P<test>\S+)\])?$")


_FAIL = lazy_compile(r"^(?P<indent>\s*)--- FAIL: (?P<name>\S+) \((?P<seconds>[\d.]+)s\)")
_PASS = lazy_compile(r"^\s*--- (?:PASS|SKIP): ")
_RUN = lazy_compile(r"^=== (?:RUN|CONT|NAME|PAUSE)\s+(?P<name>\S+)$")
_LOG = lazy_compile(r"^\s+(?P<file>[^\s:][^:]*\.go):(?P<line>\d+): (?P<message>.*)$")
_END = lazy_compile(r"^(?:FAIL|ok)\s+(?P<package>\S+)(?:\s|$)")
_FRAME = lazy_compile(r"^\t(?P<file>\S+\.go):(?P<line>\d+)(?: \+0x[0-9a-f]+)?$")
_BUILD_ERROR = LazyPattern(r"^[^\s:][^:]*\.go:\d+:\d+: ")  # another package's build output
_PANIC = lazy_compile(r"^panic: (?P<message>.+?)(?: \[recovered\])?$")
_GOT_WANT = lazy_compile(
    r"(?:got:? (?P<actual>.+?),? want:? (?P<expected>.+)$)|(?:= (?P<actual2>.+?), want (?P<expected2>.+)$)"
)


@dataclass
class _Test:
    name: str
    signal: str
    log_line: int
    messages: list[tuple[str, int, str]] = field(default_factory=list)
    race: list[tuple[str, int]] = field(default_factory=list)  # the race report's project frames


# `go test -race`: `WARNING: DATA RACE` and its goroutines' frames, printed
# before the test's `--- FAIL:` (`testing.go:1319: race detected during
# execution of test`, a line of Go's testing package, is its only message)
_RACE_FRAME = lazy_compile(r"^\s+(?P<file>\S+\.go):(?P<line>\d+)(?: \+0x[0-9a-f]+)?$")
_RACE_DETECTED = "race detected during execution of test"


class _GoTestRun:
    """The failing tests of one package: from the first `--- FAIL:` line to
    the package's `FAIL\\tpackage\\t0.01s` line.  Log lines are attached to
    the test running when they were printed (`go test -v` prints them
    before `--- FAIL:`, plain `go test` after it, indented)."""

    max_lines = 5000

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.package: str | None = None
        self.failed: list[_Test] = []
        self.logs: dict[str, list[tuple[str, int, str]]] = {}
        self.current: str | None = None
        self.panic: str | None = None
        self.frames: list[tuple[str, int]] = []  # goroutine frames in the project
        self._done = False
        self._racing = False
        self._race: list[tuple[str, int]] = []  # frames of the race report being read
        name = m.group("name")
        # its `=== RUN`, else (go test without -v) a race report just above
        found = find_above(
            ctx, 200, lambda line: line.startswith("=== ") and _run_name(line) == name
        ) or find_above(ctx, 200, lambda line: line == "WARNING: DATA RACE")
        for line in found[0][found[1] :] if found else ():
            self._read(line, 0)
        self._read(ctx.line, ctx.line_no)

    def feed(self, line: str, line_no: int) -> bool:
        if self._done:
            return False
        if (line.startswith("# ") and PACKAGE_HEADER.match(line)) or (
            ".go:" in line and _BUILD_ERROR.match(line)
        ):
            return False  # another package's build output
        self._read(line, line_no)
        return True

    def _read(self, line: str, line_no: int) -> None:
        # (each regex is tried only on lines holding its literal part: most
        # lines are a test's log)
        fail = _FAIL.match(line) if "--- FAIL: " in line else None
        if fail:
            name = fail.group("name")
            test = _Test(name, line.strip(), line_no, list(self.logs.get(name, [])), self._race)
            self.failed.append(test)
            self.current, self._race, self._racing = name, [], False
            return
        if line == "WARNING: DATA RACE":
            self._racing, self._race = True, []
            return
        if self._racing:
            race = _RACE_FRAME.match(line) if ".go:" in line else None
            if race and self.ctx.in_project(race.group("file")):
                self._race.append((race.group("file"), int(race.group("line"))))
            self._racing = not line.startswith("=================")
            return
        if "--- " in line and _PASS.match(line):
            self.current = None
            return
        run = _RUN.match(line) if line.startswith("=== ") else None
        if run:
            self.current = run.group("name")
            return
        log = _LOG.match(line) if ".go:" in line else None
        if log and self.current is not None:
            entry = (log.group("file"), int(log.group("line")), log.group("message").strip())
            self.logs.setdefault(self.current, []).append(entry)
            for t in self.failed:
                if t.name == self.current:
                    t.messages.append(entry)
            return
        panic = _PANIC.match(line) if line.startswith("panic: ") else None
        if panic and self.panic is None:
            self.panic = panic.group("message")
            return
        frame = _FRAME.match(line) if line.startswith("\t") else None
        if frame and self.panic is not None and self.ctx.in_project(frame.group("file")):
            self.frames.append((frame.group("file"), int(frame.group("line"))))
            return
        end = _END.match(line) if line.startswith(("FAIL", "ok")) else None
        if end and line_no:
            self.package = end.group("package")
            self._done = True

    def finish(self) -> Iterable[Hit]:
        names = [t.name for t in self.failed]
        hits: list[Hit] = []
        for t in self.failed:
            has_child = any(n.startswith(t.name + "/") for n in names)
            if has_child and not t.messages:
                continue  # a parent that failed because its subtest did
            hits.append(self._hit(t))
        return hits

    def _hit(self, t: _Test) -> Hit:
        hint: dict[str, Any] = {"runner": "go", "test_id": t.name, "test_path": t.name.split("/")}
        if self.package:
            hint["package"] = self.package
        file: str | None = None
        line: int | None = None
        message = "test failed"
        related: list[tuple[str, int | None, int | None, str]] = []
        category: FailureType | None = None
        if t.race and (not t.messages or t.messages[0][2].startswith(_RACE_DETECTED)):
            # the race's first project frame, not testing.go's line
            (file, line), message = t.race[0], _RACE_DETECTED
            related = [
                (f, n, None, "") for f, n in dict.fromkeys(t.race[1:]) if (f, n) != (file, line)
            ]
            hint["race"] = True
            hint["why"] = message
        elif t.messages:
            file, line, message = t.messages[0]
            file = self._locate(file)
            hint["messages"] = [f"{f}:{n}: {text}" for f, n, text in t.messages]
            hint["why"] = message[:500]
            if file.endswith("_test.go"):
                hint["test_file"] = self.ctx.resolve(file)
            got = _GOT_WANT.search(message)
            if got:
                hint["actual"] = (got.group("actual") or got.group("actual2")).strip()
                hint["expected"] = (got.group("expected") or got.group("expected2")).strip()
            # "dial tcp 127.0.0.1:5432: connect: connection refused", "X must be set"
            cause = environment_cause([text for _, _, text in t.messages])
            if cause is not None:
                category = cause.category
                hint.update(cause.hint)
        elif self.panic and t is self.failed[-1]:
            message = f"panic: {self.panic}"
            hint["panic"] = self.panic
            hint["why"] = message[:500]
            cause = environment_cause([self.panic])
            if cause is not None:
                category = cause.category
                hint.update(cause.hint)
            if self.frames:
                file, line = self.frames[0]
                related = [(f, n, None, "") for f, n in self.frames[1:]]
                own = next(((f, n) for f, n in self.frames if f.endswith("_test.go")), None)
                if own is not None:  # the test function's own frame
                    hint["test_file"] = self.ctx.resolve(own[0])
                    hint["test_line"] = own[1]
        return Hit(
            signal=t.signal,
            message=f"{t.name}: {message}",
            file=file,
            line=line,
            category=category,
            log_line=t.log_line,
            hint=hint,
            related=related,
            key=("go test", self.package or "", t.name),  # one record per test
        )

    def _locate(self, name: str) -> str:
        """A test log names its file relative to the package folder: find
        that folder under the working directory from the package path."""
        if "/" in name or not self.package:
            return name
        parts = self.package.split("/")
        for i in range(len(parts)):
            candidate = "/".join([*parts[i:], name])
            if self.ctx.exists(candidate):
                return candidate
        return name


def _run_name(line: str) -> str | None:
    if not line.startswith("=== "):  # _RUN's own start (cheaper than a match)
        return None
    run = _RUN.match(line)
    return run.group("name") if run else None


@rule(
    id="go.test",
    category=FailureType.TEST,
    tool="go test",
    pattern=r"^\s*--- FAIL: (?P<name>\S+) \((?P<seconds>[\d.]+)s\)",
    triggers=("--- FAIL: ",),
    url="https://pkg.go.dev/cmd/go#hdr-Test_packages",
)
def go_test(m: re.Match[str], ctx: LineContext) -> Block:
    """A failing Go test (`go test`, with or without -v).

    What it detects: `--- FAIL: TestAdd (0.00s)` with the test's log lines
    (`    calc_test.go:7: Add(2, 2) = 5, want 4`; printed after it by
    `go test`, before it by `go test -v`), read up to the package's
    `FAIL\\texample.com/x\\t0.003s` line, which gives hint["package"] and is
    not a record of its own.  One record per failing test: hint["test_id"]
    is the test name (`TestSplit/empty` for a subtest; a parent that only
    failed because of its subtest is not a record), the location is the
    first log line's file (found under the package's folder), and "got X,
    want Y" / "= X, want Y" give hint["actual"] and hint["expected"].
    A panic (`panic: runtime error: ...` and the goroutine trace) is the
    message of the test that was running; its first frame inside the
    project is the location, the further ones related locations.  A data
    race (`go test -race`: `WARNING: DATA RACE` and its goroutines'
    frames, printed before the test's `--- FAIL:`, whose only message is
    `testing.go:1319: race detected during execution of test`, a line of
    Go's testing package) is placed at the race report's first project
    frame (hint["race"]).  `--- PASS` lines and tests named
    TestErrorHandling that pass are not failures.

    Example output (`go test ./...`, go 1.19.8):
        --- FAIL: TestAdd (0.00s)
            calc_test.go:7: Add(2, 2) = 5, want 4
        FAIL
        FAIL	example.com/shop/calc	0.006s

    Recipe: test. Re-run the one test (`go test -run '^TestAdd$'
    example.com/shop/calc`) to tell flaky from real; a real failure is
    escalated with expected vs actual.

    References: https://pkg.go.dev/cmd/go#hdr-Test_packages,
    https://pkg.go.dev/testing
    """
    return _GoTestRun(m, ctx)


@rule(
    id="go.test_failed",
    category=FailureType.TEST,
    tool="go test",
    pattern=r"^FAIL\t(?P<package>\S+)(?:\s+\[(?P<why>[^\]]+)\]|\s+(?:[\d.]+s|\(cached\)))?$",
    triggers=("FAIL\t",),
    url="https://pkg.go.dev/cmd/go#hdr-Test_packages",
)
def go_test_failed(m: re.Match[str], ctx: LineContext) -> Hit:
    """go test's per-package summary when no failing test explained it.

    What it detects: `FAIL\\texample.com/x\\t0.003s` and `FAIL\\texample.com/x
    [build failed]` (`[setup failed]`).  After `--- FAIL:` lines it is read
    by go.test; after build errors it repeats them.  It is a fallback
    (Hit.key FALLBACK, confidence 0.5): dropped when anything more specific
    was found, and the record when the test binary exited without a
    `--- FAIL:` line (log.Fatal or os.Exit in a test, a crash, a log cut
    short); the lines printed just before it go into hint["output"].  A
    build or setup failure is compile, the rest test.

    Example output (`go test ./...`, go 1.19.8, a test calling log.Fatal):
        2026/11/30 02:11:00 SVC_CONFIG is not set
        FAIL	example.com/svc/config	0.008s

    Recipe: test (or compile): re-run the package's tests once
    (`go test example.com/svc/config`); escalated with the output.

    References: https://pkg.go.dev/cmd/go#hdr-Test_packages
    """
    package = m.group("package")
    why = m.group("why")
    output = [
        x
        for x in ctx.before(5)
        if x.strip() and not _END.match(x) and x.strip() not in ("FAIL", "PASS")
    ]
    hint: dict[str, Any] = {"runner": "go", "package": package}
    category = FailureType.COMPILE if why in ("build failed", "setup failed") else None
    if output and not why:
        hint["output"] = output
        # log.Fatal in TestMain or a test: "dial tcp ...: connection refused",
        # "SHOP_TOKEN is not set" -> the environment, not the code
        cause = environment_cause(output)
        if cause is not None:
            category = cause.category
            hint.update(cause.hint)
    return Hit(
        signal=ctx.line.strip(),
        message=f"{package}: {why}" if why else f"{package}: tests failed",
        category=category,
        confidence=0.5,
        hint=hint,
        key=(FALLBACK, "go test", package),
    )
