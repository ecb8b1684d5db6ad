"""A CI job log read as a job: its steps, and which of them failed.

The engine hands this module the lines that hold a runner's step markers
(the prefilter finds TRIGGERS in the raw bytes, escape sequences already
dropped, before a line is decoded: GitLab's section markers sit before a
carriage return that decoding would take away).  Each runner's markers are
the ones its own source writes:

* GitHub Actions (actions/runner `Handlers/ScriptHandler.cs`, `Handler.cs`,
  `ExecutionContext.cs`): every line stamped `2026-12-01T10:00:00.1234567Z `
  (`DateTime.ToString("O")`); a step opens with `##[group]Run <command or
  action>`, `Post job cleanup.` opens a post step, `Cleaning up orphan
  processes` ends the job; `##[error]` is an error of the step it is in,
  `##[error]Process completed with exit code N.` its shell's exit status;
  a `run:` step's script is printed in its group up to `shell:`, and is
  read for the folder its commands ran in (classifier/stepdir.py).
* GitLab (gitlab-runner `shells/bash.go`, `common/build.go`):
  `section_start:TS:NAME[options]\\r\\e[0K<header>` / `section_end:TS:NAME\\r\\e[0K`,
  nested; the job ends with `Job succeeded` or `ERROR: Job failed: <why>`.
* Buildkite (buildkite/agent `internal/shell/logger.go`, `internal/job/executor.go`):
  the agent's headers `~~~ <name>`, the build's own `--- ` / `+++ ` headers,
  a failed command's `🚨 Error: The command exited with status N`.
* Jenkins pipelines: `[Pipeline] stage` then `[Pipeline] { (<name>)`,
  `[Pipeline] // stage`; `ERROR: script returned exit code N` and
  `Finished: SUCCESS|FAILURE|ABORTED|UNSTABLE` at the end.
* Azure Pipelines (microsoft/azure-pipelines-agent `StepsRunner.cs`, strings
  `StepStarting`/`StepFinishing`): `##[section]Starting: <name>` /
  `##[section]Finishing: <name>`, `##[error]` lines inside.

A step is *failed* when the runner said so inside it (or, for a job-level
verdict that names no step, when it is the last step that ran before the
verdict), *succeeded* when it did not fail and the job went on past it (or
the job succeeded, or it is the runner's own step after the script, or a
stage skipped), and *unknown* otherwise (the log's last step, cut off).
Pure: no I/O; the engine feeds it, postprocess reads the layout.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from enum import StrEnum

from .lazyre import lazy_compile
from .stepdir import MAX_SCRIPT_LINES, script_folder
from .text import unstamp

# Literal byte strings, one of which every marker line holds (the engine's
# prefilter looks for them in the raw output).
TRIGGERS: tuple[str, ...] = (
    "##[group]Run ",
    "##[endgroup]",
    "##[error]",
    "##[section]Starting: ",
    "##[section]Finishing: ",
    "Post job cleanup.",
    "Cleaning up orphan processes",
    "section_start:",
    "section_end:",
    "Job succeeded",
    "Job failed",
    "~~~ ",
    "--- ",
    "+++ ",
    "\U0001f6a8 Error: ",
    "[Pipeline] ",
    "Finished: ",
    "ERROR: script returned exit code",
    "skipped due to earlier failure",
)


class StepStatus(StrEnum):
    FAILED = "failed"
    SUCCEEDED = "succeeded"
    UNKNOWN = "unknown"


@dataclass(slots=True, eq=False)
class Step:
    """One step (a GitHub Actions step, a GitLab section, a Jenkins stage)."""

    name: str
    runner: str
    start: int  # the log line of its header
    parent: Step | None = None
    end: int | None = None  # the last line that is its own (None: open to the end)
    failed_at: int | None = None  # where the runner said it failed
    exit_code: int | None = None
    post: bool = False  # the runner's own step after the script (GitLab's after_script, uploads)
    skipped: bool = False  # Jenkins: "skipped due to earlier failure(s)"
    status: StepStatus = StepStatus.UNKNOWN
    # the workspace-relative folder its script's commands ran in (stepdir.py;
    # None: unknown or not said)
    folder: str | None = None

    def within(self, other: Step) -> bool:
        """This step is `other` or nested in it."""
        s: Step | None = self
        while s is not None:
            if s is other:
                return True
            s = s.parent
        return False


_EXIT_CODE = lazy_compile(
    r"exit (?:code|status)[ :]*'?(-?\d+)|exited with (?:code|status) '?(-?\d+)"
)
# One line may hold several (`section_end:…:a\r\e[0Ksection_start:…:b\r\e[0K…`).
_GITLAB_SECTION = lazy_compile(r"section_(start|end):\d+:([^\s\[\r]+)")
_JENKINS_STAGE = lazy_compile(r"^\[Pipeline\] \{ \((.+)\)\s*$")
_JENKINS_FINISHED = lazy_compile(r"^Finished: (SUCCESS|FAILURE|ABORTED|UNSTABLE|NOT_BUILT)\s*$")
# Lines that start like a Buildkite header but are another tool's: go test's
# verdicts, a unified diff's file headers.
_NOT_BUILDKITE_HEADER = lazy_compile(
    r"^(?:--- (?:FAIL|PASS|SKIP|BENCH):|--- a/|\+\+\+ b/|--- /|\+\+\+ /)"
)
# GitLab's own sections after the script: they run whatever the script did.
_GITLAB_POST = frozenset(
    {
        "after_script",
        "archive_cache",
        "archive_cache_on_failure",
        "upload_artifacts_on_success",
        "upload_artifacts_on_failure",
        "cleanup_file_variables",
    }
)


def _exit_code(text: str) -> int | None:
    m = _EXIT_CODE.search(text)
    if m is None:
        return None
    return int(m.group(1) or m.group(2))


@dataclass(slots=True)
class JobLayout:
    """The steps of one job log, each with its status, and the job's verdict."""

    steps: list[Step]
    job_failed: bool | None  # None: the log does not say
    job_failed_at: int | None = None
    # (first line, innermost step) pieces, in order: which step a line is in
    _starts: list[int] = field(default_factory=list)
    _owners: list[Step | None] = field(default_factory=list)

    def step_at(self, line: int | None) -> Step | None:
        """The innermost step the log line is in (None: outside every step)."""
        if line is None or not self._starts:
            return None
        i = bisect.bisect_right(self._starts, line) - 1
        return self._owners[i] if i >= 0 else None

    @property
    def failed(self) -> list[Step]:
        return [s for s in self.steps if s.status is StepStatus.FAILED]


class JobSteps:
    """Collects the step markers of one output, line by line (`see`), then
    says what they add up to (`layout`)."""

    __slots__ = (
        "_buildkite",
        "_jenkins_stage_next",
        "_job_exit_code",
        "_job_failed",
        "_job_failed_at",
        "_open",
        "_owners",
        "_script",
        "_script_lines",
        "_starts",
        "steps",
    )

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self._open: list[Step] = []  # the steps open now, innermost last
        self._starts: list[int] = []
        self._owners: list[Step | None] = []
        self._job_failed: bool | None = None
        self._job_failed_at: int | None = None
        self._job_exit_code: int | None = None
        self._buildkite = False  # a Buildkite agent header was seen
        self._jenkins_stage_next = False
        self._script: Step | None = None  # the step whose printed script is being read
        self._script_lines: list[str] = []

    @property
    def reading_script(self) -> bool:
        """Whether the next lines are a step's printed script (the engine
        then hands every line to `see`, not only those with a trigger)."""
        return self._script is not None

    # -- what the runner said ----------------------------------------------------
    def see(self, raw: bytes, line_no: int) -> None:
        """Read one line that holds a trigger, or any line while a script is
        being read (cleaned bytes: no escapes)."""
        text = unstamp(raw.decode("utf-8", "replace").rstrip("\r\n"))
        if self._script is not None and self._read_script(text):
            return
        if "section_" in text:
            self._gitlab(text, line_no)
        line = unstamp(text.rsplit("\r", 1)[-1]) if "\r" in text else text
        line = line.rstrip()
        if line.startswith("##["):
            self._hashes(line, line_no)
        elif line.startswith(("~~~ ", "--- ", "+++ ")):
            self._buildkite_header(line, line_no)
        elif line.startswith("\U0001f6a8 Error: "):
            self._fail(line_no, _exit_code(line))
        elif line.startswith("[Pipeline] "):
            self._jenkins(line, line_no)
        elif line == "Post job cleanup." and self._runner() == "github-actions":
            self._open_flat("Post job cleanup", "github-actions", line_no, post=True)
        elif line == "Cleaning up orphan processes" and self._runner() == "github-actions":
            # the runner's last words: the job ends here, and what follows
            # (another job's log after this one) is in none of its steps
            self._open_flat("Complete job", "github-actions", line_no, post=True)
            self._close(line_no)
        elif "Job succeeded" in line and line.strip() == "Job succeeded":
            self._job_result(False, line_no)
        elif line.startswith("ERROR: Job failed") or line.startswith(
            "ERROR: script returned exit code"
        ):
            self._job_result(True, line_no, _exit_code(line))
        elif line.startswith("Finished: "):
            m = _JENKINS_FINISHED.match(line)
            if m:
                self._job_result(m.group(1) != "SUCCESS", line_no)
        elif "skipped due to earlier failure" in line and self._open:
            self._open[-1].skipped = True

    def folder_at(self, line_no: int) -> str | None:
        """The folder the commands of the step holding `line_no` ran in, as
        far as read (None: no step, or its folder is not known)."""
        i = bisect.bisect_right(self._starts, line_no) - 1
        owner = self._owners[i] if i >= 0 else None
        return None if owner is None else owner.folder

    def _runner(self) -> str | None:
        return self.steps[-1].runner if self.steps else None

    def _read_script(self, text: str) -> bool:
        """One line of the script GitHub Actions prints in a `run:` step's
        group, up to its `shell:` line; False for the line that ends it."""
        step = self._script
        assert step is not None
        if text.startswith("##[") or len(self._script_lines) >= MAX_SCRIPT_LINES:
            self._end_script()
            return False
        if text.startswith("shell: "):
            self._end_script()
        else:
            self._script_lines.append(text)
        return True

    def _end_script(self) -> None:
        step, self._script = self._script, None
        if step is not None:
            step.folder = script_folder(self._script_lines or [step.name])
        self._script_lines = []

    def _hashes(self, line: str, line_no: int) -> None:
        if line.startswith("##[group]Run "):
            self._open_flat(line[len("##[group]Run ") :].strip(), "github-actions", line_no)
            self._script, self._script_lines = self.steps[-1], []
        elif line.startswith("##[error]"):
            self._fail(line_no, _exit_code(line))
        elif line.startswith("##[section]Starting: "):
            self._open_flat(
                line[len("##[section]Starting: ") :].strip(), "azure-pipelines", line_no
            )
        elif line.startswith("##[section]Finishing: ") and self._open:
            self._close(line_no)

    def _gitlab(self, text: str, line_no: int) -> None:
        for m in _GITLAB_SECTION.finditer(text):
            kind, name = m.group(1), m.group(2)
            if kind == "start":
                parent = self._open[-1] if self._open else None
                step = Step(name=name, runner="gitlab", start=line_no, parent=parent)
                step.post = name in _GITLAB_POST
                self._push(step, line_no)
                continue
            for i in range(len(self._open) - 1, -1, -1):  # that section, and those in it
                if self._open[i].name == name:
                    while len(self._open) > i:
                        self._close(line_no)
                    break

    def _buildkite_header(self, line: str, line_no: int) -> None:
        if line.startswith("~~~ "):
            self._buildkite = True
        elif not self._buildkite or _NOT_BUILDKITE_HEADER.match(line):
            return  # not a Buildkite log, or a go test verdict, a diff
        self._open_flat(line[4:].strip(), "buildkite", line_no)

    def _jenkins(self, line: str, line_no: int) -> None:
        if line == "[Pipeline] stage":
            self._jenkins_stage_next = True
            return
        if self._jenkins_stage_next:
            self._jenkins_stage_next = False
            m = _JENKINS_STAGE.match(line)
            if m:
                parent = self._open[-1] if self._open else None
                self._push(
                    Step(name=m.group(1), runner="jenkins", start=line_no, parent=parent), line_no
                )
                return
        if line == "[Pipeline] // stage" and self._open:
            self._close(line_no)

    # -- the steps -----------------------------------------------------------------
    def _push(self, step: Step, line_no: int) -> None:
        self.steps.append(step)
        self._open.append(step)
        self._mark(line_no, step)

    def _open_flat(self, name: str, runner: str, line_no: int, *, post: bool = False) -> None:
        """A step that ends where the next one starts (GitHub, Buildkite, Azure)."""
        self._end_script()
        while self._open:
            self._close(line_no - 1, mark=False)
        self._push(Step(name=name, runner=runner, start=line_no, post=post), line_no)

    def _close(self, line_no: int, *, mark: bool = True) -> None:
        step = self._open.pop()
        step.end = line_no
        if mark:  # the lines after it are its parent's (or no step's)
            self._mark(line_no + 1, self._open[-1] if self._open else None)

    def _mark(self, line_no: int, owner: Step | None) -> None:
        while self._starts and self._starts[-1] > line_no:  # a step that ended on this line
            self._starts.pop()
            self._owners.pop()
        if self._starts and self._starts[-1] == line_no:
            self._owners[-1] = owner
        else:
            self._starts.append(line_no)
            self._owners.append(owner)

    def _fail(self, line_no: int, exit_code: int | None) -> None:
        if not self._open:
            return
        step = self._open[-1]
        if exit_code == 0:
            return  # `exit code 0` is not a failure
        if step.failed_at is None:
            step.failed_at = line_no
        if exit_code is not None and step.exit_code is None:
            step.exit_code = exit_code

    def _job_result(self, failed: bool, line_no: int, exit_code: int | None = None) -> None:
        """The runner's verdict on the job (GitLab's last line, Jenkins'):
        written after every step closed, so one inside a step is output."""
        if self._open or (failed and exit_code == 0):
            return
        self._job_failed = failed
        self._job_failed_at = line_no if failed else None
        self._job_exit_code = exit_code if failed else None

    def _culprit(self, line_no: int) -> Step | None:
        """The step a job-level failure names none of: the innermost step
        that owned the last line before the runner's own post steps (GitLab)
        or the stages skipped after it (Jenkins)."""
        stop = line_no
        for s in self.steps:
            if (s.post or s.skipped) and s.start < stop and s.runner != "github-actions":
                stop = s.start
                break
        i = bisect.bisect_right(self._starts, stop - 1) - 1
        while i >= 0:
            owner = self._owners[i]
            if owner is not None and not owner.post and not owner.skipped:
                return owner
            i -= 1
        return None

    def _went_on_after(self, step: Step) -> bool:
        """Whether the job started another step once this one had ended."""
        end = step.end
        return end is not None and any(t is not step and t.start >= end for t in self.steps)

    # -- what it adds up to -------------------------------------------------------------
    def layout(self) -> JobLayout:
        """The steps with their status (call once the whole output is read)."""
        if self._job_failed and not any(s.failed_at for s in self.steps):
            culprit = self._culprit(self._job_failed_at or 0)
            if culprit is not None:
                culprit.failed_at = self._job_failed_at
                if culprit.exit_code is None:
                    culprit.exit_code = self._job_exit_code
        failing = [s for s in self.steps if s.failed_at is not None]
        for s in self.steps:
            if s.failed_at is not None or any(f.within(s) for f in failing):
                s.status = StepStatus.FAILED
            elif self._job_failed is False or s.post or s.skipped or self._went_on_after(s):
                s.status = StepStatus.SUCCEEDED  # (a runner's own step, a skipped stage: no cause)
        return JobLayout(
            steps=list(self.steps),
            job_failed=self._job_failed,
            job_failed_at=self._job_failed_at,
            _starts=list(self._starts),
            _owners=list(self._owners),
        )
