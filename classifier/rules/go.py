"""Go: go build / go vet diagnostics, a program's crash, a missing go.mod.

`go test`'s report is read by classifier/rules/go_test.py (imported here).
"""

from __future__ import annotations

import re
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext, hit_from_match, match_above
from .go_panic import GoCrash
from .go_test import PACKAGE_HEADER  # (importing go_test registers its rules)
from .registry import rule

_UNDEFINED = lazy_compile(r"^undefined: (?P<name>[\w.]+)$")
_UNUSED = lazy_compile(
    r"^(?:(?P<a>\w+) declared (?:but|and) not used|declared and not used: (?P<b>\w+))$"
)
_UNUSED_IMPORT = lazy_compile(r'^"(?P<module>[^"]+)" imported (?:but|and) not used')
_NO_MODULE = lazy_compile(r"no required module provides package (?P<module>[^\s;]+)")
_BUT_DOES_HAVE = lazy_compile(
    r"\.(?P<name>\w+) undefined \((?P<advice>type .+? has no field or method \w+, but does have"
    r" (?:field |method )?(?P<suggestion>\w+))\)"
)


@rule(
    id="go.compile",
    category=FailureType.COMPILE,
    tool="go",
    pattern=r"^(?:vet: )?(?P<file>[^\s:][^:]*\.go):(?P<line>\d+):(?P<column>\d+): (?P<message>.+)$",
    triggers=(".go:",),
    url="https://pkg.go.dev/cmd/go#hdr-Compile_packages_and_dependencies",
)
def go_compile(m: re.Match[str], ctx: LineContext) -> Hit:
    """go build and go vet errors (also type errors inside go test).

    What it detects: `./main.go:5:2: undefined: strings` (go build, and
    the test build of go test), `./main.go:7:2: fmt.Printf format %d has
    arg name of wrong type string` (go vet's analyzers; `vet: ` prefixed
    type errors too).  Both print the same shape under a `# package` header
    (`# example.com/x [example.com/x.test]` for a test build), whose package
    becomes hint["package"].  From the message: the undefined name
    (hint["name"]: a package such as `strings` or `fmt` means a missing
    import), an unused variable or import, a module no go.mod requires
    (hint["module"]).  Only unindented lines are read, so the indented
    `    x_test.go:10: got 1, want 2` lines of a test log stay go.test's.

    Example output (`go build ./...`, go 1.19.8):
        # example.com/shop
        ./main.go:6:9: undefined: strings

    Recipe: compile. A missing standard-library or workspace import is
    added (`undefined: strings` -> `import "strings"`); a missing module
    gets `go get <module>` after validation.

    References: https://pkg.go.dev/cmd/go#hdr-Compile_packages_and_dependencies,
    https://pkg.go.dev/cmd/vet
    """
    message = m.group("message").strip()
    hint: dict[str, Any] = {}
    if header := match_above(ctx, PACKAGE_HEADER, 40):
        hint["package"] = header.group("package")
    undefined = _UNDEFINED.match(message)
    if undefined:
        hint["name"] = undefined.group("name")
    unused = _UNUSED.match(message)
    if unused:
        hint["unused"] = unused.group("a") or unused.group("b")
    imported = _UNUSED_IMPORT.match(message)
    if imported:
        hint["unused_import"] = imported.group("module")
    module = _NO_MODULE.search(message)
    if module:
        hint["module"] = module.group("module")
    does_have = _BUT_DOES_HAVE.search(message)
    if does_have:  # a field or method spelled with the wrong case
        hint["name"] = does_have.group("name")
        hint["suggestion"] = does_have.group("suggestion")
        hint["advice"] = [does_have.group("advice")]
    return hit_from_match(m, ctx, message=message, hint=hint)


@rule(
    id="go.panic",
    category=FailureType.COMPILE,
    tool="go",
    pattern=r"^(?P<kind>panic|fatal error): (?P<message>.+?)(?: \[recovered\])?$",
    triggers=("panic: ", "fatal error: "),
    url="https://go.dev/ref/spec#Run_time_panics",
)
def go_panic(m: re.Match[str], ctx: LineContext) -> Block:
    """A Go program that crashed: a panic or a runtime fatal error.

    What it detects: `panic: runtime error: index out of range [3] with
    length 1` or `fatal error: all goroutines are asleep - deadlock!` at
    the start of a line, followed by the goroutine traces (`goroutine 1
    [running]:` and `\t/path/main.go:11 +0x16` frames) that `go run` or a
    built program prints when it dies; without a goroutine trace it is not
    a record.  The record sits at the innermost project frame of the first
    goroutine printed that runs project code: the crashing one, or for a
    deadlock or a test timeout (every goroutine printed) the one stuck in
    the project (the runtime's and the module cache's frames are skipped;
    the next project frames are related locations); the message
    is hint["panic"] or hint["fatal_error"].  A panic inside a test is
    go.test's (it follows the test's `--- FAIL:` line); `panic: test timed
    out after 10m0s` is a test failure; a panic whose message names the
    environment (`connection refused`, `X must be set`) is infra.

    Example output (`go run .`, go 1.19.8, a nil pointer):
        panic: runtime error: invalid memory address or nil pointer dereference
        [signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x480fd6]

        goroutine 1 [running]:
        main.first(...)
            /home/me/shop/main.go:7
        main.main()
            /home/me/shop/main.go:11 +0x16
        exit status 2

    Recipe: compile: a crash is the code's; nothing is changed
    automatically, the record is escalated with the message and the frames.

    References: https://go.dev/ref/spec#Run_time_panics,
    https://pkg.go.dev/runtime#hdr-Environment_Variables (GOTRACEBACK)
    """
    return GoCrash(m.group("kind"), m.group("message").strip(), ctx)


@rule(
    id="go.no_module",
    category=FailureType.COMPILE,
    tool="go",
    pattern=(
        r"^(?:go: (?P<nofile>go\.mod file not found in current directory or any parent directory)"
        r"|pattern (?P<pattern>\S+): directory prefix \S+ does not contain main module"
        r"|go: (?P<cannot>cannot find main module)).*$"
    ),
    triggers=("go.mod file not found", "does not contain main module", "cannot find main module"),
    url="https://go.dev/ref/mod#go-mod-init",
)
def go_no_module(m: re.Match[str], ctx: LineContext) -> Hit:
    """A go command run where no module is: no go.mod in the folder or above.

    What it detects: `go: go.mod file not found in current directory or any
    parent directory; see 'go help modules'` (`go build`, `go run .`, `go
    mod tidy`), `pattern ./...: directory prefix . does not contain main
    module or its selected dependencies` (`go build ./...`, `go test
    ./...`) and `go: cannot find main module, but found .git/config`.
    There is no file to point at: the record has no location and
    hint["suggestion"] is `go mod init`.

    Example output (`go run .`, go 1.19.8, a folder without go.mod):
        go: go.mod file not found in current directory or any parent directory; see 'go help modules'

    Recipe: compile: escalated with the suggestion (`go mod init
    <module path>` needs the module's path, which only the developer knows);
    nothing is run.

    References: https://go.dev/ref/mod#go-mod-init,
    https://go.dev/ref/mod#mod-commands
    """
    line = ctx.line.strip()
    return Hit(
        signal=line,
        message=line,
        hint={"suggestion": "go mod init", "pattern": m.group("pattern") or ""},
        key=("go no module",),  # one record however many go commands said it
    )
