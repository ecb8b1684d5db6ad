"""Rust: rustc/cargo build errors, clippy, cargo summaries, build scripts.

What `cargo test` reports and a program's panic are read by
classifier/rules/rust_tests.py (imported here).
"""

from __future__ import annotations

import re
from typing import Any

from ..taxonomy import FailureType
from . import rust_tests  # noqa: F401  (registers its rules)
from .base import FALLBACK, Block, Hit, LineContext, hit_from_match, lines_above
from .registry import rule
from .rust_diagnostic import NAME, SPAN, UNCODED, RustDiagnostic, lint_code
from .rust_panic import (
    BuildScriptFailure,
)
from .rust_resolve import HEAD as RESOLVE_HEAD
from .rust_resolve import CargoResolve

_ERROR_INDEX = "https://doc.rust-lang.org/error_codes/error-index.html"
_CLIPPY_DOCS = "https://doc.rust-lang.org/clippy/usage.html"


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
    for earlier in lines_above(ctx, 60):
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
