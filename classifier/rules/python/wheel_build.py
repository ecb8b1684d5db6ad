"""pip building a package from source: the build backend's output quoted,
indented, inside pip's own report, and the compiler error in it that is
why the wheel did not build."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext
from ..python_causes import BUILD_ERRORS, import_hint
from ..registry import rule

_C_DIAG = lazy_compile(
    r"^(?P<file>[^\s:(][^:(]*?\.(?:c|h|cc|cpp|cxx|hpp|hh|pyx|pxd|m|mm|cu)):(?P<line>\d+)(?::(?P<column>\d+))?:"
    r" (?:fatal error|error): (?P<message>.+)$"
)
_MSVC_DIAG = lazy_compile(
    r"^(?P<file>[^\s(][^(]*?)\((?P<line>\d+)(?:,(?P<column>\d+))?\): (?:fatal )?error (?P<code>C\d{4}): (?P<message>.+)$"
)
_RUST_ERROR = lazy_compile(r"^error(?:\[(?P<code>E\d{4})\])?: (?P<message>.+)$")
_RUST_AT = lazy_compile(r"^\s*--> (?P<file>[^\s:]+\.rs):(?P<line>\d+):(?P<column>\d+)$")
_PY_EXC = lazy_compile(r"^(?P<exc>[A-Za-z_][\w.]*(?:Error|Exception)): (?P<message>.+)$")
_COMMAND_FAILED = lazy_compile(
    r"^error: command '(?P<cc>[^']+)' failed with exit (?:code|status) \d+"
)
_PACKAGE = lazy_compile(
    r"(?:Building wheel for|Failed building wheel for|Running setup\.py install for"
    r"|Preparing metadata \(pyproject\.toml\) for|Getting requirements to build wheel for) "
    r"(?P<package>[A-Za-z0-9][\w.-]*)"
)
# uv's own lines between its `Failed to build` and the quoted output.
_UV_REPORT = ("cause:", "Caused by:", "├─▶", "╰─▶", "[stdout]", "[stderr]")
_FAILED_FOR = lazy_compile(r"^\s*ERROR: Failed building wheel for (?P<package>\S+)")


class _WheelBuild:
    """From pip's `× Building wheel for X did not run successfully.` to its
    `ERROR: Failed building wheel for X` (or the end of the quoted output)."""

    max_lines = 20_000

    def __init__(self, m: re.Match[str], ctx: LineContext) -> None:
        self.ctx = ctx
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.package = m.group("package") or m.group("uv_package")
        self.step = m.group("step") or "Building"
        self.builder = "uv" if m.group("uv_package") else "pip"
        # pip: inside `╰─> [N lines of output]` ... `[end of output]`; uv quotes
        # the backend's [stdout] and [stderr], indented, right under its report
        self.quoted = self.builder == "uv"
        self.ended = False
        self.errors: list[Hit] = []
        self.exception: Hit | None = None
        self.command_failed: str | None = None
        self.rust: tuple[str | None, str] | None = None
        self.after = 0

    def feed(self, line: str, line_no: int) -> bool:
        text = line.strip()
        if self.ended:
            self.after += 1
            failed = _FAILED_FOR.match(line)
            if failed:
                self.package = failed.group("package")
                return True
            return self.after <= 4 and (not text or text.startswith(("note:", "hint:")))
        if not self.quoted:
            if "lines of output]" in text:
                self.quoted = True
                return True
            return text.startswith(("│", "exit code:")) or not text
        if text == "[end of output]":
            self.ended = True
            return True
        if self.builder == "uv" and text and line[:1] not in (" ", "\t"):
            if text.startswith(_UV_REPORT):
                return True
            self.ended = True
            return text.startswith("hint: ")
        self._read(text, line_no)
        return True

    def _read(self, text: str, line_no: int) -> None:
        if m := _C_DIAG.match(text):
            self._error(m, text, line_no, "cc")
            return
        if m := _MSVC_DIAG.match(text):
            self._error(m, text, line_no, "msvc")
            return
        if self.rust is not None and (at := _RUST_AT.match(text)):
            code, message = self.rust
            self.rust = None
            self._error(at, text, line_no, "rustc", message=message, code=code)
            return
        if (r := _RUST_ERROR.match(text)) and not text.startswith("error: command "):
            if not text.startswith(("error: could not compile", "error: subprocess")):
                self.rust = (r.group("code"), r.group("message"))
            return
        if c := _COMMAND_FAILED.match(text):
            self.command_failed = c.group("cc")
            return
        if e := _PY_EXC.match(text):
            self.exception = Hit(signal=text, message=text, log_line=line_no, code=e.group("exc"))

    def _error(
        self,
        m: re.Match[str],
        text: str,
        line_no: int,
        compiler: str,
        message: str | None = None,
        code: str | None = None,
    ) -> None:
        g = m.groupdict()
        self.errors.append(
            Hit(
                signal=text,
                message=message or g.get("message") or text,
                file=g["file"],
                line=int(g["line"]),
                column=int(g["column"]) if g.get("column") else None,
                code=code or g.get("code"),
                tool=compiler,
                log_line=line_no,
                hint={"compiler": compiler},
            )
        )

    def finish(self) -> Iterable[Hit]:
        context = {"build_step": self.step, "builder": self.builder}
        if self.package:
            context["built_package"] = self.package
        if self.command_failed:
            context["compiler_command"] = self.command_failed
        if self.errors:
            for hit in self.errors:
                hit.hint.update(context)
                yield hit
            return
        hint = dict(context)
        category = FailureType.COMPILE
        signal, message, code = self.signal, self.signal, None
        log_line: int | None = self.log_line
        if self.exception is not None:
            exc = self.exception
            signal, message, log_line, code = exc.signal, exc.message, exc.log_line, exc.code
            short = (exc.code or "").rsplit(".", 1)[-1]
            hint["exception"] = exc.code
            if short in BUILD_ERRORS and short != "NameError":
                hint.update(import_hint(exc.message))  # a build requirement not installed
        yield Hit(
            signal=signal,
            message=f"building {self.package or 'the package'} failed: {message}",
            category=category,
            code=code,
            log_line=log_line,
            hint=hint,
        )


@rule(
    id="python.wheel_build",
    category=FailureType.COMPILE,
    tool="pip",
    pattern=r"^\s*× (?P<step>Building wheel|Preparing metadata|Getting requirements to build wheel"
    r"|Building editable|Running setup\.py install)(?: for (?P<package>[A-Za-z0-9][\w.-]*))?"
    r"(?: \([\w.]+\))? did not run successfully\.\s*$"
    r"|^(?:error:|×) Failed to build `(?P<uv_package>[A-Za-z0-9][\w.-]*)(?: @ [^`]+)?`\s*$",
    triggers=("did not run successfully.", "Failed to build `"),
    url="https://pip.pypa.io/en/stable/topics/dependency-resolution/",
    priority=20,
)
def wheel_build(m: re.Match[str], ctx: LineContext) -> _WheelBuild:
    """A package pip could not build from source, and why.

    What it detects: pip's `× Building wheel for X (pyproject.toml) did not
    run successfully.` report (and the same for preparing metadata, getting
    build requirements, an editable build, `setup.py install`): the build
    backend's output quoted under `╰─> [N lines of output]`, indented, up
    to `[end of output]`, then `ERROR: Failed building wheel for X`. The
    quoted output is read for the cause: a C/C++ compiler's `file:line:col:
    error: ...` (gcc and clang run by setuptools, Cython's C), MSVC's
    `file(line): error Cnnnn: ...`, rustc's `error[Ennnn]` with its `-->`
    line (maturin, setuptools-rust). Each compiler error is the record (the
    wheel's failure is its consequence, not a record of its own), with
    hint `built_package`. uv's report is read the same way: `error: Failed
    to build `pkg @ file:///...`` (or `× Failed to build`), its `cause:` /
    `├─▶` lines, and the backend's `[stdout]` and `[stderr]` quoted,
    indented, under it (hint `builder: uv`). With none, a Python exception in the output (a build
    requirement missing: `ModuleNotFoundError: No module named 'numpy'`,
    hint `module`) or pip's report itself is the one record.

    Example output (`pip wheel --no-deps --no-build-isolation .`, pip 26.0):
          × Building wheel for fastsum (pyproject.toml) did not run successfully.
          │ exit code: 1
          ╰─> [17 lines of output]
              building 'fastsum' extension
              gcc ... -c fastsum.c -o build/temp.linux-x86_64-cpython-311/fastsum.o
              fastsum.c:7:34: error: expected ‘;’ before ‘}’ token
              error: command '/usr/bin/gcc' failed with exit code 1
              [end of output]

          note: This error originates from a subprocess, and is likely not a problem with pip.
          ERROR: Failed building wheel for fastsum

    Recipe: compile, at the compiler's file and line (in the package's
    source tree); hint: built_package, build_step, compiler, compiler_command.

    References: https://pip.pypa.io/en/stable/topics/dependency-resolution/
    """
    return _WheelBuild(m, ctx)
