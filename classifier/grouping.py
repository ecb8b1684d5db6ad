"""Root-cause groups: many failing tests, one cause, one record.

A test suite prints one failure per test; a removed import fails sixty of
them the same way.  After precedence has decided each record's category
(docs/precedence.md), the records of failing tests that share a cause
become ONE record for the cause:

* the same missing name in the same file (a NameError, a ReferenceError),
  or the same missing module (one install fixes every importer; a relative
  module only for the same importing file);
* the same environment variable; the same unreachable host:port;
* otherwise the same throwing location (file and line) with the same
  normalised message (numbers and hashes folded: `assert 4 == 5` and
  `assert 6 == 7` at one line are one cause).

The group record is the first of its members whose own error names the
cause, with `affected` = the number of tests it accounts for (each test id
counted once, however often it was reported) and those tests in `related`
as `Location(test_file, test_line, why, test=<test id>)` (the first
MAX_TESTS of them); other places the cause was seen (the same missing name
on another line of the file) are `related` locations too.  Its id is the
cause's (category, code, file and normalised message; no test name in it),
so it is the same whichever tests failed.  Also folded into a group: a
record of the same cause that names no test (an infra rule that read the
same line; it counts no test), a missing name reported without the frame
that threw (into the one placed group of that name), and the later
failures of a test the cause already failed (a doctest's next examples).

Every record of a failing test lists its test(s) this way, a group of one
included, so what a recipe re-runs is always `[l.test for l in
record.related if l.test]`.

Pure, deterministic (groups keep the order of their first member), and
linear in the number of records: it runs once, when the output is closed.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from .fingerprint import fingerprint, normalise_message
from .mcpconfig import fold_server_crashes
from .record import FailureRecord, Location
from .taxonomy import FailureType

MAX_TESTS = 100  # tests listed in a group's `related` (the count stays exact)
MAX_PLACES = 20  # further locations of the same cause listed
_NETWORK_KINDS = frozenset({"refused", "reset", "dns", "timeout", "unreachable", "network"})


def test_of(r: FailureRecord) -> str | None:
    """The test a record is the failure of (its hint's test id; the raw id,
    when redaction masked part of it, is record.raw_hint("test_id"))."""
    tid = r.hint.get("test_id")
    return tid if isinstance(tid, str) and tid else None


def is_test_failure(r: FailureRecord) -> bool:
    """A record read from a test runner's report (it names its runner)."""
    return isinstance(r.hint.get("runner"), str)


def _text(r: FailureRecord) -> str:
    why = r.hint.get("why")
    return why if isinstance(why, str) and why else r.signal


def cause_key(r: FailureRecord) -> tuple[Hashable, ...] | None:
    """What makes two failures one cause (None: nothing to group by)."""
    h = r.hint
    ft = r.failure_type
    if ft is FailureType.COMPILE:
        name, module = h.get("name"), h.get("module")
        if isinstance(name, str) and name:
            return (
                "compile",
                "name",
                name,
                module if isinstance(module, str) else "",
                r.source_file,
            )
        if isinstance(module, str) and module:
            local = module.startswith((".", "/")) or h.get("local") is True
            return ("compile", "module", module, r.source_file if local else None)
    if ft is FailureType.INFRA:
        var = h.get("variable")
        if isinstance(var, str) and var:
            return ("infra", "env", var)
        host = h.get("host")
        if h.get("kind") in _NETWORK_KINDS and isinstance(host, str) and host:
            return ("infra", "network", h.get("kind"), host)
    sub, tid = h.get("subtest"), test_of(r)
    if isinstance(sub, str) and tid and r.source_file and r.source_line:
        # one test's subtests failing at one line: its parameters differ, not the cause
        return (ft.value, "subtests", tid, r.source_file, r.source_line)
    if r.source_file and r.source_line:
        return (
            ft.value,
            r.tool or "",
            r.source_file,
            r.source_line,
            r.code or "",
            normalise_message(_text(r)),
        )
    return None


@dataclass(slots=True)
class _Group:
    head: FailureRecord
    members: list[FailureRecord] = field(default_factory=list)
    others: list[FailureRecord] = field(default_factory=list)  # same cause, no test


def test_location(r: FailureRecord) -> Location:
    """The place of the test a record is the failure of, with its id."""
    h = r.hint
    file = h.get("test_file")
    line = h.get("test_line")
    if not isinstance(file, str) or not file:
        file, line = "", None  # the runner did not say (the id is what re-runs it)
    elif not isinstance(line, int) or line < 1:
        line = r.source_line if file == r.source_file else None
    return Location(file=file, line=line, message=_text(r)[:300], test=test_of(r))


def _keep_raw_tests(head: FailureRecord, members: list[FailureRecord]) -> None:
    """The unmasked ids of the head's tests (a title holding `user:pw@host`)."""
    for r in members:
        tid = test_of(r)
        if tid is not None:
            head.keep_raw_test(tid, r.raw_hint("test_id"))
            head.keep_raw_test(tid, r.raw_test(tid))


class _Tests:
    """The tests of one cause, each counted once by its id (a test reported
    twice, as pytest's report and summary line, unittest's subtests or a
    doctest's examples, is one test to re-run), listed up to MAX_TESTS."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.listed: list[Location] = []
        self.count = 0

    def take(self, loc: Location) -> None:
        if loc.test is not None:
            if loc.test in self.seen:
                return
            self.seen.add(loc.test)
        self.count += 1
        if len(self.listed) < MAX_TESTS and (loc.test is not None or loc.file):
            self.listed.append(loc)


def _fold(group: _Group) -> FailureRecord:
    """The group's record: its head, counting and listing its tests.  The
    head is the first member whose own error names the cause (not one that
    only chained it: "DID NOT WARN" raised over the NameError)."""
    head = next((r for r in group.members if "cause_exception" not in r.hint), group.head)
    tests = _Tests()
    places: list[Location] = []
    here = (head.source_file, head.source_line)
    for r in group.members:
        tests.take(test_location(r))
        for loc in r.related:  # tests folded into it before (precedence)
            if loc.test:
                tests.take(loc)
        where = (r.source_file, r.source_line)
        if r.source_file and where != here and len(places) < MAX_PLACES:
            loc = Location(file=r.source_file, line=r.source_line, message=_text(r)[:300])
            if loc not in places:
                places.append(loc)
    for other in group.others:
        _absorb(head, other)
    subtests = [m.hint["subtest"] for m in group.members if isinstance(m.hint.get("subtest"), str)]
    if len(subtests) > 1:
        head.hint["subtests"] = list(dict.fromkeys(subtests))[:MAX_TESTS]
    _list_tests(head, tests, places)
    _keep_raw_tests(head, group.members)
    return head


def _list_tests(head: FailureRecord, tests: _Tests, places: list[Location]) -> None:
    # a test's place supersedes the same place listed as a plain frame
    shown = {(t.file, t.line) for t in tests.listed}
    frames = [x for x in head.related if not x.test and (x.file, x.line) not in shown]
    head.related = [*frames, *places, *tests.listed]
    head.affected = max(tests.count, 1)


def _absorb(
    head: FailureRecord, other: FailureRecord, why: str = "the same cause", hint: bool = True
) -> None:
    if hint:
        for k, v in other.hint.items():
            head.hint.setdefault(k, v)
    seen = head.hint.setdefault("also_seen_as", [])
    if isinstance(seen, list) and len(seen) < MAX_PLACES:
        seen.append({"failure_type": other.failure_type.value, "rule": other.rule, "why": why})


def _cause_id(r: FailureRecord) -> str:
    return fingerprint(r.failure_type.value, r.code or r.tool, r.source_file, _text(r))


def group(records: list[FailureRecord]) -> list[FailureRecord]:
    """The records with the failing tests of one cause folded into one
    record per cause (see the module docstring); order kept."""
    records = _one_secret_a_place(_one_divergence(fold_server_crashes(records)))
    groups: dict[tuple[Hashable, ...], _Group] = {}
    order: list[FailureRecord | _Group] = []
    loose: list[tuple[tuple[Hashable, ...], FailureRecord]] = []  # same cause, no test
    for r in records:
        key = cause_key(r)
        if not is_test_failure(r):
            if key is not None and r.failure_type is not FailureType.TEST:
                loose.append((key, r))
            order.append(r)
        elif key is None:
            order.append(r)
        else:
            g = groups.get(key)
            if g is None:
                g = groups[key] = _Group(r)
                order.append(g)
            g.members.append(r)
    _join_unplaced(groups)
    _fold_consequences(groups)
    _fold_seen_through(groups)
    absorbed: set[int] = set()
    for k, r in loose:
        g = groups.get(k)
        if g is not None:
            g.others.append(r)
            absorbed.add(id(r))
    out: list[FailureRecord] = []
    for item in order:
        if isinstance(item, _Group):
            if item.members:
                out.append(_fold(item))
        elif id(item) not in absorbed:
            if any(x.test for x in item.related):  # a record tests were folded into
                tests = _Tests()
                for x in item.related:
                    if x.test:
                        tests.take(x)
                _list_tests(item, tests, [])
            out.append(item)
    _cause_ids(out)
    return out


def _branches(r: FailureRecord) -> tuple[str, str]:
    b, u = r.hint.get("branch"), r.hint.get("upstream")
    return (b if isinstance(b, str) else "", u if isinstance(u, str) else "")


def _same_ref(a: str, b: str) -> bool:
    """Two names of one ref, or one not said (`origin/main` and `main`)."""
    return not a or not b or a == b or a.endswith("/" + b) or b.endswith("/" + a)


def _one_divergence(records: list[FailureRecord]) -> list[FailureRecord]:
    """A branch that diverged from its upstream, told by `git status` and
    again by the `git pull` that refused (or by a pull and its push): one
    record, the first, unless the two name different branches.  A conflict
    is in a file and stays one record a file."""
    first: FailureRecord | None = None
    out: list[FailureRecord] = []
    for r in records:
        if r.failure_type is not FailureType.BRANCH_DIVERGENCE or r.source_file:
            out.append(r)
            continue
        if first is None:
            first = r
            out.append(r)
            continue
        mine, theirs = _branches(first), _branches(r)
        if all(_same_ref(a, b) for a, b in zip(mine, theirs, strict=True)):
            _absorb(first, r, "the same divergence, told again")
        else:
            out.append(r)
    return out


def _one_secret_a_place(records: list[FailureRecord]) -> list[FailureRecord]:
    """One secret matched by several of a scanner's detectors (detect-secrets'
    AWS key, high-entropy string and secret keyword, all on one line) is one
    record for the line, its types listed in hint["secret_types"]."""
    seen: dict[tuple[str, str, int, str], FailureRecord] = {}
    out: list[FailureRecord] = []
    for r in records:
        kind = r.hint.get("secret_type")
        if r.failure_type is not FailureType.TRUST_GATE or not isinstance(kind, str):
            out.append(r)
            continue
        if not r.source_file or not r.source_line:
            out.append(r)
            continue
        key = (r.rule or "", r.source_file, r.source_line, str(r.hint.get("scanner", "")))
        head = seen.get(key)
        if head is None:
            seen[key] = r
            r.hint["secret_types"] = [kind]
            out.append(r)
            continue
        types = head.hint["secret_types"]
        if isinstance(types, list) and kind not in types:
            types.append(kind)
        _absorb(head, r, "the same secret, matched by another detector", hint=False)
    return out


def _join_unplaced(groups: dict[tuple[Hashable, ...], _Group]) -> None:
    """A missing name reported without the frame that threw (an error with
    no stack) is the placed cause of the same name, when there is one."""
    placed: dict[tuple[Hashable, ...], list[_Group]] = {}
    for key, g in groups.items():
        if key[:2] == ("compile", "name") and key[-1] is not None:
            placed.setdefault(key[:4], []).append(g)
    for key, g in groups.items():
        if key[:2] != ("compile", "name") or key[-1] is not None:
            continue
        same = placed.get(key[:4], [])
        if len(same) == 1:
            same[0].members.extend(g.members)
            g.members = []


def _fold_consequences(groups: dict[tuple[Hashable, ...], _Group]) -> None:
    """A test a cause already failed may fail again further on (the later
    examples of a doctest whose first example raised the NameError, using
    what it did not define): those failures are the cause's too."""
    caused: dict[str, _Group] = {}
    for g in groups.values():
        if g.head.failure_type is not FailureType.TEST:
            for m in g.members:
                tid = test_of(m)
                if tid is not None:
                    caused.setdefault(tid, g)
    if not caused:
        return

    def cause_of(m: FailureRecord) -> _Group | None:
        tid = test_of(m)
        return caused.get(tid) if tid is not None else None

    _move_tests(groups, cause_of, "a later failure of a test this cause failed")


def _move_tests(
    groups: dict[tuple[Hashable, ...], _Group],
    cause_of: Callable[[FailureRecord], _Group | None],
    absorbed: str | None = None,
) -> None:
    """Each member of a test group that `cause_of` gives a cause group goes
    to it: absorbed into its head (saying `absorbed`), or one more member."""
    for g in groups.values():
        if g.head.failure_type is not FailureType.TEST:
            continue
        kept = []
        for m in g.members:
            target = cause_of(m)
            if target is None:
                kept.append(m)
            elif absorbed is not None:
                _absorb(target.head, m, absorbed, hint=False)
            else:
                target.members.append(m)
        g.members = kept
        if kept:
            g.head = kept[0]


def _fold_seen_through(groups: dict[tuple[Hashable, ...], _Group]) -> None:
    """A test that failed because a program it ran failed on the cause (a
    CLI test running the package, its assertion quoting the child's
    traceback: `NameError: name 'summ' is not defined` in pkg/core.py) is
    one more test of that cause, not a failure of its own."""
    causes: list[tuple[str, str, _Group]] = []
    for key, g in groups.items():
        file = g.head.source_file
        if key[:2] == ("compile", "name") and file:
            causes.append((f"name '{key[2]}' is not defined", file, g))
        elif key[:2] == ("compile", "module") and file:
            causes.append((f"No module named '{key[2]}'", file, g))
    if not causes:
        return

    def cause_of(m: FailureRecord) -> _Group | None:
        said = m.hint.get("explanation")
        text = "\n".join(x for x in said if isinstance(x, str)) if isinstance(said, list) else ""
        return next((c for error, file, c in causes if error in text and f'{file}"' in text), None)

    _move_tests(groups, cause_of)


def _cause_ids(records: list[FailureRecord]) -> None:
    """A group of several tests, or a cause read from a test's report, is
    known by its cause: its message and id leave the test out."""
    taken = {r.id for r in records}
    for r in records:
        if not is_test_failure(r):
            continue
        if r.affected < 2 and r.failure_type is FailureType.TEST:
            continue
        r.message = _text(r)[:2000]
        r.signal = _text(r)[:500]  # the error, not the first test's title
        new = _cause_id(r)
        if new == r.id:
            continue
        base, n = new, 1
        while new in taken:
            n += 1
            new = f"{base}.{n}"
        taken.discard(r.id)
        taken.add(new)
        r.id = new
