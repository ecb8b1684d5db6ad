"""Rust: the failures `cargo test` reports (a doc test's, a test's panic or
returned error) and a program's own panic (`cargo run`, a built binary).

Part of the `rust` family (classifier/rules/rust.py imports it).
"""

from __future__ import annotations

import re
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import Block, Hit, LineContext, lines_above
from .causes import environment_cause, infra_env
from .registry import rule
from .rust_panic import (
    DOC_TEST,
    PANIC_NEW,
    PANIC_OLD,
    ProgramPanic,
    RustPanic,
    doc_hint,
)

ECOSYSTEM = "Rust"

_TEST_DOCS = "https://doc.rust-lang.org/cargo/commands/cargo-test.html"


@rule(
    id="rust.doc_test",
    category=FailureType.TEST,
    tool="cargo test",
    pattern=DOC_TEST.pattern,
    triggers=(") stdout ----",),
    url="https://doc.rust-lang.org/rustdoc/write-documentation/documentation-tests.html",
)
def rust_doc_test(m: re.Match[str], ctx: LineContext) -> Hit:
    """A failing Rust doc test (`cargo test`, `cargo test --doc`).

    What it detects: the `---- src/lib.rs - with_vat (line 7) stdout ----`
    header cargo prints for each failing doc test. The record sits at the
    doc example's line (the line in the name: where its code block opens),
    hint["test_id"] is the doc test's full name (what `cargo test --doc
    -- --exact` matches) and hint["target"] is `--doc`. A panic under it
    (`thread 'main' panicked at src/lib.rs:5:1:`, a line of rustdoc's
    generated program, not of the file) is the same failure: its message
    and `left`/`right` values join this record. A doc test that does not
    compile also gets rustc's own records (rust.error) at the lines of the
    example.

    Example output (`cargo test --no-fail-fast`, cargo 1.95.0):
        ---- src/lib.rs - with_vat (line 7) stdout ----
        Test executable failed (exit status: 101).

        stderr:

        thread 'main' (12196) panicked at src/lib.rs:5:1:
        assertion `left == right` failed
          left: 121
         right: 120

    Recipe: test: re-run the one doc test (`cargo test --doc -- --exact
    'src/lib.rs - with_vat (line 7)'`); a real failure is escalated with
    expected vs actual.

    References: https://doc.rust-lang.org/rustdoc/write-documentation/documentation-tests.html
    """
    name = m.group("name")
    return Hit(
        signal=ctx.line.strip(),
        message=f"doc test failed: {name}",
        file=m.group("file"),
        line=int(m.group("line")),
        hint={"runner": "cargo", "test_id": name, **doc_hint(m, ctx)},
        key=("cargo-doc", name),
    )


@rule(
    id="rust.test_panic",
    category=FailureType.TEST,
    tool="cargo test",
    pattern=r"^thread '(?P<thread>[^']+)'(?: \(\d+\))? panicked at ",
    triggers=(" panicked at ",),
    url=_TEST_DOCS,
)
def rust_test_panic(m: re.Match[str], ctx: LineContext) -> Block | None:
    """A failing Rust test: a panic in a test thread (`cargo test`).

    What it detects: `thread 'tests::it_works' panicked at src/lib.rs:10:9:`
    (since Rust 1.73, with the thread id `(12345)` since 1.87) or the older
    `thread 'x' panicked at 'message', src/lib.rs:10:9`, followed by the
    panic message and, for assert_eq!/assert_ne!, the `left:`/`right:`
    values.  The thread name is the test path and becomes hint["test_id"];
    `left` is hint["actual"] and `right` hint["expected"] (the
    assert_eq!(actual, expected) convention).  Backtrace frames inside the
    project are related locations.  The `test x ... FAILED` lines and the
    `failures:` list repeat what the panic said and are not records; a panic
    of the `main` thread (cargo run) or of an unnamed spawned thread is not a
    test failure: it is rust.panic's.

    Example output (`cargo test`, cargo 1.95.0):
        thread 'tests::it_works' (10514) panicked at src/lib.rs:15:9:
        assertion `left == right` failed
          left: 5
         right: 4

    Recipe: test. Re-run the one test (`cargo test tests::it_works --
    --exact`) to tell flaky from real; a real assertion is escalated with
    expected vs actual.

    References: https://doc.rust-lang.org/cargo/commands/cargo-test.html,
    https://doc.rust-lang.org/std/macro.assert_eq.html
    """
    full = PANIC_NEW.match(ctx.line) or PANIC_OLD.match(ctx.line)
    if full is None:
        return None
    if full.group("thread") not in _PROGRAM_THREADS:
        return RustPanic(full, ctx)
    # `main` panicking is a program's crash (cargo run), unless it is a doc
    # test's generated program: its `---- ... stdout ----` header is just above
    for line in lines_above(ctx, 8):
        doc = DOC_TEST.match(line)
        if doc:
            return RustPanic(full, ctx, doc)
    return None


# the threads of a program, never a test's: libtest names each test's thread
_PROGRAM_THREADS = frozenset({"main", "<unnamed>"})


@rule(
    id="rust.panic",
    category=FailureType.COMPILE,
    tool="cargo",
    pattern=r"^thread '(?:main|<unnamed>)'(?: \(\d+\))? panicked at ",
    triggers=(" panicked at ",),
    url="https://doc.rust-lang.org/std/macro.panic.html",
)
def rust_panic(m: re.Match[str], ctx: LineContext) -> Block | None:
    """A Rust program that panicked (`cargo run`, a built binary).

    What it detects: `thread 'main' (18669) panicked at src/main.rs:2:5:`
    (or the older `thread 'main' panicked at 'msg', src/main.rs:2:5`), and
    a spawned thread's `thread '<unnamed>' panicked at ...` (libtest names
    every test's thread after the test), that rust.test_panic leaves out,
    being no test's thread nor a doc test's program, with the panic message under it and, under RUST_BACKTRACE=1,
    the backtrace.  The record sits at the panic's location (for
    unwrap/expect, the caller's line), or at the innermost backtrace frame
    in the project when the panic is inside a dependency; the message is
    hint["panic"].  `.expect("X must be set")` on a missing variable and
    an io::Error naming the environment (`ConnectionRefused`) are infra.

    Example output (`cargo run`, cargo 1.95.0):
        thread 'main' (18669) panicked at src/main.rs:2:5:
        index out of bounds: the len is 2 but the index is 2
        note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

    Recipe: compile: a panic is the code's; nothing is changed
    automatically, the record is escalated with the message and the frames.

    References: https://doc.rust-lang.org/std/macro.panic.html,
    https://doc.rust-lang.org/std/backtrace/index.html
    """
    full = PANIC_NEW.match(ctx.line) or PANIC_OLD.match(ctx.line)
    if full is None or any(DOC_TEST.match(x) for x in ctx.before(8)):
        return None  # a doc test's generated program: rust.test_panic's
    return ProgramPanic(full, ctx)


_STDOUT_HEADER = lazy_compile(r"^---- (?P<name>\S+) stdout ----$")


@rule(
    id="rust.test_error",
    category=FailureType.TEST,
    tool="cargo test",
    pattern=r"^Error: (?P<message>.+)$",
    triggers=("Error: ",),
    url="https://doc.rust-lang.org/book/ch11-01-writing-tests.html#using-resultt-e-in-tests",
)
def rust_test_error(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A Rust test that returned `Err` (a test `fn x() -> Result<(), E>`).

    What it detects: the `Error: <Debug of the error>` line libtest prints
    as the whole output of such a test, right under its `---- name stdout
    ----` header (no panic, no location). The error decides the category as
    for a panic: `Os { code: 111, kind: ConnectionRefused, ... }` is infra
    (transient), a message naming an unset variable infra; anything else is
    the test's failure. Only directly under a test's header, so other
    programs' `Error:` lines stay theirs.

    Example output (`cargo test`, cargo 1.95.0):
        ---- tests::cache_answers stdout ----
        Error: Os { code: 111, kind: ConnectionRefused, message: "Connection refused" }

    Recipe: test (or infra): re-run the one test (`cargo test
    tests::cache_answers -- --exact`); hint["test_id"] is its path.

    References: https://doc.rust-lang.org/book/ch11-01-writing-tests.html#using-resultt-e-in-tests
    """
    before = ctx.before(1)
    header = _STDOUT_HEADER.match(before[-1]) if before else None
    if header is None or DOC_TEST.match(before[-1]):
        return None
    name = header.group("name")
    message = m.group("message").strip()
    hint: dict[str, Any] = {
        "runner": "cargo",
        "test_id": name,
        "test_path": name.split("::"),
        "why": ctx.line.strip()[:500],
    }
    category: FailureType | None = None
    cause = environment_cause([message])
    if cause is None and "NotPresent" in message:
        cause = infra_env(None)
    if cause is not None:
        category = cause.category
        hint.update(cause.hint)
    return Hit(
        signal=ctx.line.strip(),
        message=f"{name}: {message}",
        category=category,
        hint=hint,
        key=("cargo", name),
    )
