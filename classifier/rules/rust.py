"""Rust: rustc/cargo build errors, clippy, cargo test panics, cargo summaries."""

from __future__ import annotations

import re
from typing import Any

from ..lazyre import lazy_compile
from ..taxonomy import FailureType
from .base import FALLBACK, Block, Hit, LineContext, hit_from_match
from .causes import environment_cause, infra_env
from .registry import rule
from .rust_diagnostic import NAME, SPAN, UNCODED, RustDiagnostic, lint_code
from .rust_panic import (
    DOC_TEST,
    PANIC_NEW,
    PANIC_OLD,
    BuildScriptFailure,
    ProgramPanic,
    RustPanic,
    doc_hint,
)
from .rust_resolve import HEAD as RESOLVE_HEAD
from .rust_resolve import CargoResolve

_RUSTC_DOCS = "https://doc.rust-lang.org/rustc/json.html"
_ERROR_INDEX = "https://doc.rust-lang.org/error_codes/error-index.html"
_CLIPPY_DOCS = "https://doc.rust-lang.org/clippy/usage.html"
_TEST_DOCS = "https://doc.rust-lang.org/cargo/commands/cargo-test.html"


@rule(
    id="rust.error",
    category=FailureType.COMPILE,
    tool="rustc",
    pattern=r"^error\[(?P<code>E\d{4})\]: (?P<message>.+)$|^\s*--> (?P<file>.+?):(?P<line>\d+):(?P<column>\d+)$",
    triggers=("error[E", "--> "),
    url=_ERROR_INDEX,
)
def rust_error(m: re.Match[str], ctx: LineContext) -> Block | None:
    """rustc errors as cargo build / cargo check / rustc print them.

    What it detects: `error[Ennnn]: message` (or `error: message` directly
    followed by a `--> file:line:col` span, as for lints denied by
    `-D warnings`), read as one block up to the blank line that ends the
    diagnostic.  The primary `-->` span is the location; `:::` spans are
    related locations.  Warnings are not failures and are not matched.
    Every `help:` goes into hint["suggestions"]: inline ones (`help: a local
    variable with a similar name exists: `x``, or a label's `help: ...:
    `_x``) with their replacement text and span, diff-style ones (`help:
    consider importing this struct` then `1 + use std::collections::HashMap;`)
    with their edited lines (op `+` insert, `-` delete, `~`/`|` replace).
    The missing name (`cannot find value `x``) is hint["name"] and a
    similar-name suggestion hint["suggestion"].  A diagnostic whose lint is
    a clippy lint is reported under rust.clippy.

    Example output (`cargo build`, cargo 1.95.0):
        error[E0425]: cannot find value `subtotl` in this scope
         --> src/main.rs:3:5
          |
        3 |     subtotl + 1
          |     ^^^^^^^
          |
        help: a local variable with a similar name exists
          |
        3 |     subtotal + 1
          |           +

    Recipe: compile. The recipe applies the suggestion (the similar name,
    the `use` line to import) or adds the missing import.

    References: https://doc.rust-lang.org/error_codes/error-index.html,
    https://doc.rust-lang.org/rustc/json.html
    """
    if m.group("code"):
        return RustDiagnostic(m.group("message"), m.group("code"), ctx.line, ctx.line_no)
    # An uncoded `error: message` is only rustc's when a span follows it; the
    # rule starts on the span so that other tools' `error:` lines stay theirs.
    previous = ctx.before(1)
    head = UNCODED.match(previous[0]) if previous else None
    if head is None:
        return None
    diag = RustDiagnostic(head.group("message"), None, previous[0], ctx.line_no - 1)
    span = SPAN.match(ctx.line)
    if span:
        diag.feed_span(span)
    return diag


@rule(
    id="rust.clippy",
    category=FailureType.COMPILE,
    tool="clippy",
    pattern=r"^\s*= note: `-D (?P<lint>clippy::[\w-]+)` implied by `-D warnings`",
    triggers=("= note: `-D clippy::",),
    url=_CLIPPY_DOCS,
)
def rust_clippy(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """clippy lints turned into errors (`cargo clippy -- -D warnings`).

    What it detects: an `error: message` diagnostic with a `-->` span whose
    lint note names a clippy lint (`= note: `-D clippy::needless-return`
    implied by `-D warnings``, or `#[deny(clippy::...)]`).  The rust.error
    block reads such a diagnostic and reports it under this rule, with the
    lint (`clippy::needless_return`) as the code and its `help:` suggestion
    in hint["suggestions"].  The pattern itself matches the lint note when
    it arrives outside a diagnostic block (a block cut at its line limit);
    the error line and span are then looked up in the lines before it, and
    when rust.error already reported that error the lint joins its hint.
    Rustc lints denied the same way (`-D unused-variables`) stay rust.error
    with the lint as the code.

    Example output (`cargo clippy -- -D warnings`, clippy 0.1.95):
        error: unneeded `return` statement
         --> src/main.rs:2:5
          |
        2 |     return w * h;
          |     ^^^^^^^^^^^^
          |
          = note: `-D clippy::needless-return` implied by `-D warnings`

    Recipe: compile; the lint's suggestion (`help: remove `return``) is the
    machine-applicable fix.

    References: https://doc.rust-lang.org/clippy/usage.html,
    https://rust-lang.github.io/rust-clippy/master/index.html
    """
    error: str | None = None
    span: re.Match[str] | None = None
    for earlier in reversed(ctx.before(60)):
        span = span or SPAN.match(earlier)
        if earlier.startswith("error: "):
            error = earlier
            break
    if error is None:
        return None
    lint = lint_code(m.group("lint"))
    return Hit(
        signal=error.strip(),
        message=error[len("error: ") :].strip(),
        file=span.group("file") if span else None,
        line=int(span.group("line")) if span else None,
        column=int(span.group("column")) if span else None,
        hint={"lint": lint},
    )


@rule(
    id="rust.short",
    category=FailureType.COMPILE,
    tool="rustc",
    pattern=r"^(?P<file>[^\s:][^:]*\.rs):(?P<line>\d+):(?P<column>\d+): error(?:\[(?P<code>E\d{4})\])?: (?P<message>.+)$",
    triggers=(".rs:",),
    url="https://doc.rust-lang.org/cargo/reference/external-tools.html",
)
def rust_short(m: re.Match[str], ctx: LineContext) -> Hit:
    """rustc errors in the short format (`--message-format=short`,
    `--error-format=short`).

    What it detects: `src/main.rs:3:5: error[E0425]: message`, one line per
    error; warnings in the same format are not failures.

    Example output (`cargo build --message-format=short`, cargo 1.95.0):
        src/main.rs:3:5: error[E0425]: cannot find value `subtotl` in this scope

    Recipe: compile, as for rust.error (no suggestions are printed in this
    format).

    References: https://doc.rust-lang.org/cargo/reference/external-tools.html,
    https://doc.rust-lang.org/rustc/command-line-arguments.html#--error-format-control-how-errors-are-produced
    """
    hint: dict[str, Any] = {}
    name = NAME.match(m.group("message"))
    if name:
        hint["name"] = name.group("name")
    return hit_from_match(m, ctx, hint=hint)


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
    for line in reversed(ctx.before(8)):
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


@rule(
    id="rust.cargo_failed",
    category=FailureType.COMPILE,
    tool="cargo",
    pattern=(
        r"^error: (?:could not compile `(?P<crate>[^`]+)`(?P<what>.*)"
        r"|aborting due to (?P<count>.+)"
        r"|(?:doc)?test failed, to rerun pass `(?P<target>[^`]*)`)$"
    ),
    triggers=(
        "error: could not compile `",
        "error: aborting due to ",
        "error: test failed, ",
        "error: doctest failed, ",
    ),
    url="https://doc.rust-lang.org/cargo/commands/cargo-build.html",
)
def rust_cargo_failed(m: re.Match[str], ctx: LineContext) -> Hit:
    """cargo's closing summary of a failed build or test run.

    What it detects: `error: could not compile `crate` (bin "x") due to 2
    previous errors`, rustc's `error: aborting due to 2 previous errors` and
    cargo test's `error: test failed, to rerun pass `--lib`` (`doctest
    failed, ... `--doc`` for doc tests): the target is given to the test
    records above it as hint["target"] before this summary is dropped.
    These repeat what the detailed diagnostics said, so the record is a fallback
    (Hit.key FALLBACK, confidence 0.5): it is dropped when any more specific
    record was found, and stands when the details are missing (a log cut to
    its tail, a diagnostic format no rule reads), so a failed run is never
    reported as clean.  "test failed" is a test failure, the others compile.

    Example output (`cargo build 2>&1 | tail -n 1`, cargo 1.95.0):
        error: could not compile `inventory` (bin "inventory") due to 2 previous errors

    Recipe: compile (or test): nothing to apply without the details; the
    recipe re-runs the command to get them.

    References: https://doc.rust-lang.org/cargo/commands/cargo-build.html,
    https://doc.rust-lang.org/cargo/commands/cargo-test.html
    """
    hint: dict[str, Any] = {}
    category = FailureType.COMPILE
    if m.group("crate"):
        hint["crate"] = m.group("crate")
    if m.group("target") is not None:
        category = FailureType.TEST
        hint["rerun_args"] = m.group("target")
    return Hit(
        signal=ctx.line.strip(),
        message=ctx.line.strip()[len("error: ") :],
        tool="cargo" if m.group("count") is None else "rustc",
        category=category,
        confidence=0.5,
        hint=hint,
        key=(FALLBACK, "cargo", ctx.line.strip()),
    )


@rule(
    id="rust.cargo_resolve",
    category=FailureType.COMPILE,
    tool="cargo",
    pattern=RESOLVE_HEAD.pattern,
    triggers=("error: no matching package ",),
    url="https://doc.rust-lang.org/cargo/reference/specifying-dependencies.html",
)
def rust_cargo_resolve(m: re.Match[str], ctx: LineContext) -> CargoResolve:
    """A dependency cargo could not resolve, decided by cargo's own words.

    What it detects: `error: no matching package named `x` found` (or `no
    matching package found` with `searched package name: `x``) and the lines
    cargo adds: `perhaps you meant:`, `location searched:`, `required by
    package `demo v0.1.0 (/dir)``, the `--offline` reminder
    (classifier/rules/rust_resolve.py).  "perhaps you meant" is a typo in
    the manifest: compile, on the dependency's line of that package's
    Cargo.toml, cargo's suggestion in hint["advice"]; the offline reminder
    alone is a registry cache without the crate: infra (`kind: offline`, not
    transient); otherwise the registry has no such crate: compile.

    Example output (`cargo test --offline`, cargo 1.95.0):
        error: no matching package named `serde` found
        location searched: crates.io index
        required by package `demo v0.1.0 (/work/demo)`
        As a reminder, you're using offline mode (--offline) which can sometimes cause
        surprising resolution failures, if this error is too confusing you may wish to
        retry without `--offline`.

    Recipe: infra (offline: escalated with cargo's advice, nothing to retry)
    or compile (the typo is shown with cargo's suggestion; a dependency is
    never renamed automatically).

    References: https://doc.rust-lang.org/cargo/reference/specifying-dependencies.html,
    https://doc.rust-lang.org/cargo/commands/cargo-fetch.html
    """
    return CargoResolve(m, ctx)


@rule(
    id="rust.build_script",
    category=FailureType.COMPILE,
    tool="cargo",
    pattern=r"^error: failed to run custom build command for `(?P<package>[^`]+)`$",
    triggers=("failed to run custom build command for",),
    url="https://doc.rust-lang.org/cargo/reference/build-scripts.html",
)
def rust_build_script(m: re.Match[str], ctx: LineContext) -> Block:
    """A package's build script (build.rs) that failed during cargo build.

    What it detects: `error: failed to run custom build command for
    `shop v0.1.0 (/src/shop)`` and what cargo prints under it: `Caused by:`,
    `process didn't exit successfully: ...` and the script's indented
    `--- stdout` / `--- stderr`.  A panic of the script (`thread 'main'
    panicked at build.rs:2:45:`) places the record at that line of the
    package's build.rs, its message the record's; otherwise the last lines
    of the script's output are the message.  `.expect("X must be set")` on
    a missing environment variable (`NotPresent`) and a network error are
    infra; hint["package"] is the package.

    Example output (`cargo build`, cargo 1.95.0):
        error: failed to run custom build command for `buildrs v0.1.0 (/src/buildrs)`

        Caused by:
          process didn't exit successfully: `/src/buildrs/target/debug/build/buildrs-dd713ab8d04f19cd/build-script-build` (exit status: 101)
          --- stderr

          thread 'main' (27106) panicked at build.rs:2:45:
          SHOP_PROTO_DIR must be set: NotPresent

    Recipe: compile (infra for the environment): escalated with the
    script's message; nothing is changed automatically.

    References: https://doc.rust-lang.org/cargo/reference/build-scripts.html
    """
    return BuildScriptFailure(m.group("package"), ctx)
