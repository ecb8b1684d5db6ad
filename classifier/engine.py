"""The streaming classification engine.

Bytes go in (from a file, a pipe, a language-server notification), records
come out.  The engine never holds the whole output: it keeps one chunk, a
short tail of the previous chunk for look-behind, the multi-line reports
being read, and the records found so far.  Memory therefore grows with the
number of failures, not with the size of the output.

Speed comes from a prefilter: the literal triggers of every rule are looked
for in the raw bytes of the whole chunk at once (classifier/prefilter.py:
Aho-Corasick in Rust, Hyperscan on long outputs); only lines that contain a
trigger (or that follow the start of a multi-line report) are decoded and
handed to the rules.  Noise is never decoded at all.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .config import effective_rules
from .fingerprint import fingerprint_normalised, normalise_message, same_failure_text
from .heap import keep_freed_buffers
from .jobsteps import TRIGGERS as STEP_TRIGGERS
from .jobsteps import JobLayout, JobSteps
from .locate import Locator
from .postprocess import finalize
from .prefilter import Prefilter
from .redact import TextMemo, redact_hit_details, redact_hit_text
from .rules.base import Block, Hit, Rule
from .stepdir import in_folder
from .taxonomy import TAXONOMY, FailureType
from .text import clean_bytes, clean_joined, decode_line, decode_lines

if TYPE_CHECKING:
    from .record import FailureRecord  # imported when the first record is made

log = logging.getLogger(__name__)

CHUNK = 1 << 20  # bytes read at a time
MAX_LINE = 64 * 1024  # a longer line is cut there for matching (the rest is skipped)
# Look-behind kept across chunk boundaries: as many lines as any rule asks
# ctx.before() for (300), within the last TAIL_BYTES, so what a rule sees
# does not depend on where the input was split.
TAIL_LINES = 300
TAIL_BYTES = 64 * 1024
TAIL_ENDS = 16  # chunk ends kept unsplit (many short feeds: a server's stream)
MAX_SIGNAL = 500
UNCLAIMED_LINES = 16  # prefiltered lines no rule claimed, kept for the fallback record
LARGE_OUTPUT = 8 << 20  # bytes read before the C heap keeps freed chunk buffers (heap.py)


@dataclass(slots=True)
class Options:
    """How to classify one output."""

    cwd: str = "."
    task: str | None = None
    command: Sequence[str] | str | None = None
    exit_code: int | None = None
    log_file: str | None = None
    rules: Sequence[Rule] | None = None  # None: every built-in rule (plus project rules)
    extra: dict[str, Any] = field(default_factory=dict)


def _pos(value: int | None) -> int | None:
    """A 1-based position, or None for a 0 or negative one (`line 0` in output)."""
    return value if value is not None and value > 0 else None


class _RuleSet:
    """What the engine derives from a rule set: the prefilter automaton, each
    trigger's rules mask, and the rules each mask names (filled as masks are
    met).  Pure, so one is shared by every Classifier with the same rules."""

    __slots__ = (
        "by_mask",
        "cross_line",
        "every_line",
        "masks",
        "prefilter",
        "rules",
        "step_bit",
        "triggers",
    )

    def __init__(self, rules: tuple[Rule, ...]) -> None:
        self.rules = rules
        # the bit past the rules' own: a CI runner's step marker (jobsteps.py)
        self.step_bit = 1 << len(rules)
        triggers, self.masks = _trigger_index(rules, self.step_bit)
        # a trigger with a line end inside (a project rule's) can be found
        # across two lines: then each line's rules are looked at again
        self.cross_line = any(b"\n" in t and t != b"\n" for t in triggers)
        # the rules naming the trigger "\n": they see every line
        self.every_line = self.masks[triggers.index(b"\n")] if b"\n" in triggers else 0
        self.triggers = triggers
        self.prefilter = Prefilter(triggers, cross_line=self.cross_line)
        self.by_mask: dict[int, tuple[Rule, ...]] = {0: ()}

    def present(self, line: str) -> int:
        """The mask of the rules with a trigger in `line` (a str contains a
        str exactly when its UTF-8 bytes contain the other's)."""
        mask = self.every_line
        masks = self.masks
        data = line.encode("utf-8", "surrogatepass")
        for idx, _, _ in self.prefilter.short().find_matches_as_indexes(data, overlapping=True):
            mask |= masks[idx]
        return mask

    def rules_for(self, mask: int) -> tuple[Rule, ...]:
        """The rules of the set bits of `mask`, in priority order."""
        rules = self.by_mask.get(mask)
        if rules is None:
            picked = []
            bits = mask & (self.step_bit - 1)
            while bits:  # the set bits, lowest (highest priority) first
                low = bits & -bits
                picked.append(self.rules[low.bit_length() - 1])
                bits ^= low
            rules = self.by_mask[mask] = tuple(picked)
        return rules


# Rule sets by the identities of their rules.  An entry holds its rules, so
# no id in a key can be reused by another object while the entry exists; a
# changed project config builds new Rule objects, hence a new entry.
_RULESETS: dict[tuple[int, ...], _RuleSet] = {}
MAX_RULESETS = 16
_RULESETS_LOCK = threading.Lock()


def _ruleset(rules: Sequence[Rule]) -> _RuleSet:
    enabled = tuple(r for r in rules if r.enabled)
    key = tuple(map(id, enabled))
    found = _RULESETS.get(key)
    if found is None:
        found = _RuleSet(enabled)
        with _RULESETS_LOCK:  # classifiers are built on worker threads too
            while len(_RULESETS) >= MAX_RULESETS:
                _RULESETS.pop(next(iter(_RULESETS)))
            _RULESETS[key] = found
    return found


def _trigger_index(rules: Sequence[Rule], step_bit: int) -> tuple[tuple[bytes, ...], list[int]]:
    """The distinct triggers (sorted) and, for each, a bit mask of the rules
    (bit i: rules[i]) that name it, with `step_bit` for a CI runner's step
    markers (jobsteps.TRIGGERS)."""
    masks: dict[bytes, int] = {}
    for i, r in enumerate(rules):
        for t in r.triggers:
            key = t.encode("utf-8")
            masks[key] = masks.get(key, 0) | (1 << i)
    for t in STEP_TRIGGERS:
        key = t.encode("utf-8")
        masks[key] = masks.get(key, 0) | step_bit
    triggers = tuple(sorted(masks))
    return triggers, [masks[t] for t in triggers]


class _Context:
    """The LineContext handed to rules (see rules.base.LineContext)."""

    __slots__ = ("_asked", "_before", "_buf", "_engine", "_start", "line", "line_no")

    def __init__(self, engine: Classifier, buf: bytes, start: int, line: str, line_no: int):
        self._engine = engine
        self._buf = buf
        self._start = start
        self.line = line
        self.line_no = line_no
        self._asked = 0  # the largest n before() was asked for, and its answer
        self._before: list[str] = []

    def before(self, n: int) -> list[str]:
        if n <= 0:
            return []
        if n > self._asked:  # several rules (or one rule twice) ask about one line
            self._before = self._lines_before(n)
            self._asked = n
        return self._before[-n:]

    def _lines_before(self, n: int) -> list[str]:
        """The n lines before this one: the chunk's (`_Window`), then the tail's."""
        end = self._start - 1  # the '\n' ending the previous line
        lines: list[str] = []
        if end >= 0:
            lines = self._engine._chunk_lines(self._buf, end, n)
            if len(lines) >= n:
                return lines
        return self._engine._tail_last(n - len(lines)) + lines

    @property
    def cwd(self) -> str:
        return self._engine.options.cwd

    @property
    def state(self) -> dict[str, Any]:
        return self._engine.rule_state

    def exists(self, path: str) -> bool:
        return self._engine.locator.exists(path)

    def in_project(self, path: str) -> bool:
        return self._engine.locator.in_project(path)

    def resolve(self, path: str) -> str:
        return self._engine.locator.resolve(path)


def _span_start(buf: bytes, end: int, n: int) -> int:
    """A line start `lo` with at least n lines in buf[lo:end] (`end` a line
    end), or 0: a window grown until it holds n line ends."""
    width = 80 * n + 256
    lo = max(0, end - width)
    while lo > 0 and buf.count(b"\n", lo, end) < n:
        width *= 4
        lo = max(0, end - width)
    if lo > 0:  # start at a line start: past the first line end (there are n)
        lo = buf.index(b"\n", lo, end) + 1
    return lo


class _Window:
    """The decoded lines of buf[lo:hi] (lo a line start, hi a line end), grown
    as rules look back from later lines of the chunk: several rules looking
    back over the same lines decode them once, each piece in one go."""

    __slots__ = ("buf", "hi", "lines", "lo")
    MAX_BYTES = 256 * 1024  # a longer window is started afresh (bounds its memory)

    def __init__(self, buf: bytes, end: int, n: int) -> None:
        self.buf = buf
        self.lo = _span_start(buf, end, n)
        self.hi = end
        self.lines = decode_lines(buf[self.lo : end])

    def reaches(self, buf: bytes, end: int, n: int) -> bool:
        """Whether the lines up to `end` are best taken from this window."""
        return (
            buf is self.buf
            and self.lo <= end
            and end - self.hi <= 80 * n + 256
            and end - self.lo <= max(self.MAX_BYTES, 2 * (80 * n + 256))
        )

    def take(self, end: int, n: int) -> list[str]:
        """The (up to) n lines that end at `end`, the last one ending there."""
        buf = self.buf
        if end > self.hi:  # the lines since the window's end
            self.lines += decode_lines(buf[self.hi + 1 : end])
            self.hi = end
        # lines up to the one ending at `end` (counted back from the window's end)
        k = len(self.lines) - buf.count(b"\n", end, self.hi)
        if k < n and self.lo > 0:  # lines before the window's start
            lo = _span_start(buf, self.lo - 1, n - k)
            more = decode_lines(buf[lo : self.lo - 1])
            self.lines[:0] = more
            self.lo = lo
            k += len(more)
        return self.lines[max(0, k - n) : k]


class Classifier:
    """Feed output in pieces, then `close()` for the records.

    >>> c = Classifier(Options(cwd="."))
    >>> c.feed(b"src/a.ts(3,1): error TS2304: Cannot find name 'X'.\\n")
    >>> [r.code for r in c.close()]
    ['TS2304']
    """

    def __init__(self, options: Options | None = None) -> None:
        self.options = options or Options()
        self.locator = Locator(self.options.cwd)
        self.config_errors: list[str] = []
        if self.options.rules is not None:
            rules = list(self.options.rules)
        else:  # the built-ins, less what the project disabled, plus its own rules
            rules, self.config_errors = effective_rules(self.options.cwd)
        self._ruleset = _ruleset(rules)
        self._pending = b""
        self._skipping_long_line = False
        self._lines = 0  # complete lines consumed so far
        # The last TAIL_LINES lines of the previous chunks, raw (decoded only
        # when a rule looks back that far: `_tail_last`), and the decoded end
        # of that list.
        self._tail_raw: list[bytes] = []
        self._tail_text: list[str] = []
        # The ends (TAIL_BYTES) of the chunks scanned since the tail was last
        # split into lines: most chunks are never looked back into, so each
        # is split only when a rule (or `tail`) asks (`_split_tail`).
        self._tail_ends: list[bytes] = []
        self._window: _Window | None = None  # lines of the chunk rules looked back over
        self._blocks: list[tuple[Rule, Block, int]] = []
        self._records: dict[tuple[Any, ...], FailureRecord] = {}
        # A rule's own key (Hit.key) -> the record key it was first stored
        # under: one failure told twice with two categories (RSpec's report
        # says infra, its "Failed examples:" line test) is one record.
        self._keyed: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        # The keys of records that are warnings (Hit.warning): kept or dropped
        # at close by classifier/warnings_policy.py.
        self.warning_keys: set[tuple[Any, ...]] = set()
        # How many more times the output reported a record (id(record) -> n):
        # one record, the count of what was printed (dependency_errors.py).
        self.repeats: dict[int, int] = {}
        self._ids: dict[str, int] = {}
        # Secrets named by scanners, redacted wherever they appear (redact.py).
        self.secrets: set[str] = set()
        self._masked = TextMemo()  # signals and messages already masked
        # The last few lines the prefilter selected but no rule claimed: the
        # fallback record's signal when a failed command matched no rule.
        self.unclaimed: deque[tuple[int, str]] = deque(maxlen=UNCLAIMED_LINES)
        # Lines inside a block that a higher-priority rule claimed, with that
        # rule's priority: the block's own hit for such a line is superseded.
        self._claimed: dict[int, int] = {}
        self.bytes_read = 0
        self.rule_errors: list[tuple[str, str]] = []
        # What stateful rules keep for the length of one output (an
        # errorformat's directory and file stacks), by rule id.
        self.rule_state: dict[str, Any] = {}
        # A CI job's steps, made when the first step marker is seen.
        self._steps: JobSteps | None = None
        self.closed = False

    # -- input ---------------------------------------------------------------
    def feed(self, data: bytes) -> None:
        """Feed raw output bytes (any split, any encoding junk)."""
        if self.bytes_read < LARGE_OUTPUT <= self.bytes_read + len(data):
            keep_freed_buffers()  # (a long output: its chunk buffers are reused)
        self.bytes_read += len(data)
        head = self._pending  # the unfinished line (never holds a line end)
        cut = data.rfind(b"\n")
        if cut < 0:
            buf = head + data if head else data
            self._pending = buf
            if len(buf) > MAX_LINE:
                self._long_line(buf)
            return
        self._pending = data[cut + 1 :]
        # the complete lines: head + data[:cut + 1], copied at most once
        start = 0
        if self._skipping_long_line:  # the rest of an over-long line goes
            start = data.find(b"\n") + 1
            head = b""
            self._lines += 1
            self._skipping_long_line = False
        if head or start <= cut:
            self._scan(clean_joined(head, data, start, cut + 1))
        if len(self._pending) > MAX_LINE:
            self._long_line(self._pending)

    def _long_line(self, buf: bytes) -> None:
        # A line longer than MAX_LINE: classify its head, drop the rest.
        if not self._skipping_long_line:
            self._scan(clean_bytes(buf[:MAX_LINE]) + b"\n", count_lines=False)
            self._skipping_long_line = True
        self._pending = b""

    def feed_text(self, text: str) -> None:
        """Feed already decoded text."""
        self.feed(text.encode("utf-8", "surrogatepass"))

    def feed_stream(self, stream: Any, chunk: int = CHUNK) -> None:
        """Feed everything a binary stream yields."""
        while True:
            data = stream.read(chunk)
            if not data:
                break
            self.feed(data)

    # -- scanning ---------------------------------------------------------------
    def _scan(self, buf: bytes, count_lines: bool = True) -> None:
        """Run the rules over the lines of `buf` (complete lines, cleaned bytes)
        that contain a trigger, and over every line while a report is open.

        The automaton reports every occurrence of every trigger (overlapping),
        so each candidate line knows which rules name a trigger it contains:
        only those rules are tried on it."""
        n = len(buf)
        if not n:
            return
        masks = self._ruleset.masks
        # candidate lines: [start, end, rules mask], in order
        starts: list[int] = []
        ends: list[int] = []
        line_masks: list[int] = []
        line_end = -1
        scanner = self._ruleset.prefilter.for_size(self.bytes_read)
        for idx, s, _ in scanner.find_matches_as_indexes(buf, overlapping=True):
            if s > line_end:
                begin = buf.rfind(b"\n", 0, s) + 1
                line_end = buf.find(b"\n", s)
                if line_end < 0:
                    line_end = n
                starts.append(begin)
                ends.append(line_end)
                line_masks.append(masks[idx])
            else:
                line_masks[-1] |= masks[idx]
        pos = 0
        c = 0  # next candidate line
        nc = len(starts)
        lines = self._lines
        step_bit = self._ruleset.step_bit
        while pos < n:
            if c < nc and starts[c] == pos:  # a candidate line
                end = ends[c]
                mask = line_masks[c]
                c += 1
                if mask & step_bit or self._reading_script():  # a CI runner's step marker, maybe
                    self._step_marker(buf[pos:end], lines + 1)
                    mask &= ~step_bit
                    if not mask and not self._blocks:
                        lines += 1
                        pos = end + 1
                        continue
            elif self._blocks or self._reading_script():  # every line is wanted
                end = buf.find(b"\n", pos)
                if end < 0:
                    end = n
                mask = 0
                if self._reading_script():  # a step's printed script (jobsteps.py)
                    self._step_marker(buf[pos:end], lines + 1)
                    if not self._blocks:
                        lines += 1
                        pos = end + 1
                        continue
            elif c < nc:  # skip the noise up to the next candidate line
                lines += buf.count(b"\n", pos, starts[c])
                pos = starts[c]
                continue
            else:
                break
            self._lines = lines
            self._line(buf, pos, decode_line(buf[pos:end]), lines + 1, mask, end - pos)
            lines += 1
            pos = end + 1
        if pos < n:
            lines += buf.count(b"\n", pos)
        if count_lines:
            self._lines = lines
        self._window = None
        self._remember_tail(buf)

    def _reading_script(self) -> bool:
        return self._steps is not None and self._steps.reading_script

    def _step_marker(self, raw: bytes, line_no: int) -> None:
        steps = self._steps
        if steps is None:
            steps = self._steps = JobSteps()
        try:
            steps.see(raw, line_no)
        except Exception as exc:  # never lose the output to the step reader
            log.warning("job steps: line %d not read: %s", line_no, exc, exc_info=exc)

    def job_layout(self) -> JobLayout | None:
        """The CI job's steps and which failed (None: no step marker seen)."""
        return None if self._steps is None else self._steps.layout()

    def _remember_tail(self, buf: bytes) -> None:
        end = buf[-TAIL_BYTES:]
        lines = end.count(b"\n") + (not end.endswith(b"\n"))  # its lines, the last unended
        if lines >= TAIL_LINES:  # it alone fills the tail: what came before goes
            self._tail_ends = [end]
            self._tail_raw = []
        else:
            self._tail_ends.append(end)
            if len(self._tail_ends) > TAIL_ENDS:
                self._split_tail()
        self._tail_text = []

    def _split_tail(self) -> None:
        """Fold the chunk ends kept by `_remember_tail` into the tail's lines."""
        for end in self._tail_ends:
            body = end.split(b"\n")
            if body and body[-1] == b"":
                body.pop()
            if len(body) >= TAIL_LINES:
                self._tail_raw = body[len(body) - TAIL_LINES :]
            else:
                self._tail_raw = (self._tail_raw + body)[-TAIL_LINES:]
        self._tail_ends = []

    def _chunk_lines(self, buf: bytes, end: int, n: int) -> list[str]:
        """The n lines of `buf` that end at `end` (fewer at its start)."""
        window = self._window
        if window is None or not window.reaches(buf, end, n):
            window = self._window = _Window(buf, end, n)
        return window.take(end, n)

    def _tail_last(self, k: int) -> list[str]:
        """The last k lines of the tail (fewer when it is shorter), decoded."""
        if self._tail_ends:
            self._split_tail()
        raw = self._tail_raw
        k = min(k, len(raw))
        done = self._tail_text
        if len(done) < k:
            more = decode_lines(b"\n".join(raw[len(raw) - k : len(raw) - len(done)]))
            done = self._tail_text = more + done
        return done[len(done) - k :]

    def tail(self) -> list[str]:
        """The last lines read (up to TAIL_LINES), oldest first."""
        return self._tail_last(TAIL_LINES)

    def _line(
        self, buf: bytes, start: int, line: str, line_no: int, mask: int, raw_len: int
    ) -> None:
        # A block consuming the line hides it from rules of its own priority
        # or lower; a higher-priority rule still sees it (an MCP SDK error
        # inside a Python or Node traceback), but may only add a hit.
        floor: int | None = None
        if self._blocks:
            consumed = False
            still: list[tuple[Rule, Block, int]] = []
            for rule, block, fed in self._blocks:
                try:
                    took = block.feed(line, line_no)
                except Exception as exc:  # a broken rule never stops the others
                    self._rule_failed(rule, exc)
                    continue
                if took is None:  # seen but not taken: the block stays open
                    if fed + 1 < block.max_lines:
                        still.append((rule, block, fed + 1))
                    else:
                        self._finish(rule, block)
                    continue
                if took:
                    floor = rule.priority if floor is None else max(floor, rule.priority)
                if took and fed + 1 < block.max_lines:
                    consumed = True
                    still.append((rule, block, fed + 1))
                else:
                    consumed = consumed or took
                    self._finish(rule, block)
            self._blocks = still
            if not consumed:
                floor = None
        if len(line) > MAX_LINE:
            line = line[:MAX_LINE]
        # A rule is tried only when one of its triggers is in the line as
        # decoded.  A line decoded to as many characters as it has bytes is
        # its bytes (decoding only ever drops or merges bytes: a CR redraw, a
        # runner's timestamp, a multi-byte character, the cut above), so the
        # prefilter's mask holds; otherwise the decoded line is looked at again.
        if mask and (len(line) != raw_len or self._ruleset.cross_line):
            mask &= self._ruleset.present(line)
        ctx: _Context | None = None
        for rule in self._ruleset.rules_for(mask):
            if floor is not None and rule.priority <= floor:
                continue  # hidden from rules at or below the consuming block's priority
            try:
                m = rule.pattern.search(line)
            except Exception as exc:  # a project rule's guarded pattern that gave up
                self._rule_failed(rule, exc)
                continue
            if m is None:
                continue
            if ctx is None:
                ctx = _Context(self, buf, start, line, line_no)
            try:
                result = rule.func(m, ctx)
            except Exception as exc:
                self._rule_failed(rule, exc)
                continue
            if result is None:
                continue
            if isinstance(result, Hit):
                if floor is not None:  # the hit may explain an earlier line
                    self._claimed[result.log_line or line_no] = rule.priority
                self._add(rule, result, line_no)
            elif floor is None:
                self._blocks.append((rule, result, 0))
            return
        if floor is None:
            self.unclaimed.append((line_no, line[:MAX_SIGNAL]))

    def _finish(self, rule: Rule, block: Block) -> None:
        try:
            hits = list(block.finish())
        except Exception as exc:
            self._rule_failed(rule, exc)
            return
        for h in hits:
            if (
                h.log_line is not None
                and self._claimed.get(h.log_line, rule.priority) > rule.priority
            ):
                continue  # a higher-priority rule already explained this line
            self._add(rule, h, h.log_line)

    def _rule_failed(self, rule: Rule, exc: Exception) -> None:
        """A rule that raised: kept once in `rule_errors` (its first error),
        which each front says in one line (cli/classify.py, recipes/observe.py,
        the server's log messages); the traceback only at DEBUG."""
        log.debug("rule %s failed", rule.id, exc_info=exc)
        if any(rid == rule.id for rid, _ in self.rule_errors):
            return
        text = str(exc).splitlines()[0] if str(exc) else ""
        self.rule_errors.append((rule.id, f"{type(exc).__name__}: {text}".rstrip(": ")))

    # -- records ------------------------------------------------------------------
    def add_hit(self, hit: Hit, *, rule_id: str, category_: FailureType, tool: str) -> None:
        """Add a hit found by something other than a line rule (structured input)."""
        hit.rule_id = hit.rule_id or rule_id
        hit.category = hit.category or category_
        hit.tool = hit.tool or tool
        self._store(hit)

    def _add(self, rule: Rule, hit: Hit, line_no: int | None) -> None:
        hit.rule_id = hit.rule_id or rule.id
        hit.category = hit.category or rule.category
        hit.tool = hit.tool or rule.tool
        if hit.log_line is None:
            hit.log_line = line_no
        self._store(hit)

    def _store(self, hit: Hit) -> None:
        # a test id is argv for a re-run: its raw value is kept apart
        # (FailureRecord.raw_hint) before secrets are masked
        identity = [(k, hit.hint[k]) for k in IDENTITY_KEYS if k in hit.hint]
        secrets = redact_hit_text(hit, self.secrets, self._masked)
        ft = hit.category
        if type(ft) is not FailureType:  # a rule may name its category by value
            ft = FailureType(ft or FailureType.COMPILE)
        cat = TAXONOMY[ft]
        file = hit.file
        if file and not hit.resolved:
            if self._steps is not None:
                file = self._in_step_folder(file, hit.log_line or self._lines)
            file = self.locator.resolve(file)
        message = hit.message or hit.signal
        if hit.key:
            key: tuple[Any, ...] = self._keyed.setdefault(hit.key, (ft.value, *hit.key))
        else:
            key = (ft.value, file, hit.line, hit.code, same_failure_text(message))
        existing = self._records.get(key)
        if existing is not None:
            # the same failure again (a long output repeats it): only the hint
            # keys the record lacks, and its identity, are masked and read
            fresh = [k for k in hit.hint if k not in existing.hint or k in IDENTITY_KEYS]
            redact_hit_details(hit, secrets, fresh, self._masked)
            self._merge(existing, hit)
            self.repeats[id(existing)] = self.repeats.get(id(existing), 0) + 1
            _keep_raw(existing, hit, identity)
            if not hit.warning:  # the same finding reported as an error
                self.warning_keys.discard(key)
            return
        redact_hit_details(hit, secrets, memo=self._masked)
        if hit.warning:
            self.warning_keys.add(key)
        normalised = normalise_message(message)
        base_id = fingerprint_normalised(ft.value, hit.code or hit.tool, file, normalised)
        seen = self._ids.get(base_id, 0)
        self._ids[base_id] = seen + 1
        rid = base_id if seen == 0 else f"{base_id}.{seen + 1}"
        from .record import FailureRecord, Location  # (not for an output with none)

        related = [
            Location(
                file=self.locator.resolve(f) if f else f,
                line=ln if ln and ln > 0 else None,
                column=col if col and col > 0 else None,
                message=msg,
            )
            for f, ln, col, msg in hit.related
            if f
        ]
        record = self._records[key] = FailureRecord(
            failure_type=ft,
            severity=cat.severity,
            signal=hit.signal.strip()[:MAX_SIGNAL],
            source_file=file,
            source_line=_pos(hit.line),
            auto_recoverable=cat.auto_recoverable,
            recipe=cat.recipe,
            id=rid,
            tool=hit.tool,
            code=hit.code,
            message=message.strip()[: MAX_SIGNAL * 4],
            source_column=_pos(hit.column),
            end_line=_pos(hit.end_line),
            end_column=_pos(hit.end_column),
            log_line=_pos(hit.log_line),
            log_file=self.options.log_file,
            rule=hit.rule_id,
            task=hit.task or self.options.task,
            confidence=hit.confidence,
            hint=hit.hint,
            related=related,
        )
        if identity:
            _keep_raw(record, hit, identity)

    def _in_step_folder(self, printed: str, line_no: int) -> str:
        """A path printed in a CI step whose script changed folder, relative
        to the workspace (classifier/stepdir.py); the printed path when it
        names a file of the workspace that the step's folder has not (a tool
        that prints paths from the repository's root, as pytest's rootdir)."""
        assert self._steps is not None
        there = in_folder(self._steps.folder_at(line_no), printed)
        if there == printed or (self.locator.exists(printed) and not self.locator.exists(there)):
            return printed
        return there

    def _merge(self, rec: FailureRecord, hit: Hit) -> None:
        if rec.source_file is None and hit.file:
            # a summary seen first (a TAP `not ok` line), the detail naming
            # the file after it (Test::More's `#   at t/x.t line 10.`)
            rec.source_file = hit.file if hit.resolved else self.locator.resolve(hit.file)
            rec.source_line = _pos(hit.line)
            rec.source_column = _pos(hit.column)
        elif rec.source_line is None and _pos(hit.line):
            rec.source_line = hit.line
            rec.source_column = _pos(hit.column)
        for k, v in hit.hint.items():
            rec.hint.setdefault(k, v)

    # -- output -------------------------------------------------------------------
    @property
    def records(self) -> list[FailureRecord]:
        """The records found so far, in the order they were first seen."""
        return list(self._records.values())

    def close(self) -> list[FailureRecord]:
        """Flush the last partial line and open reports; return every record."""
        if not self.closed:
            self.closed = True
            if self._pending and not self._skipping_long_line:
                self._scan(clean_bytes(self._pending) + b"\n")
            self._pending = b""
            for rule, block, _ in self._blocks:
                self._finish(rule, block)
            self._blocks = []
            finalize(self)
        return self.records


# Hint values a re-run passes as argv (record.py FailureRecord.raw_hint).
IDENTITY_KEYS = ("test_id", "test_path", "test_title", "test_name", "test_file")


def _keep_raw(record: FailureRecord, hit: Hit, identity: list[tuple[str, Any]]) -> None:
    for k, raw in identity:
        if record.hint.get(k) == hit.hint.get(k) != raw:
            record.keep_raw(k, raw)


def classify_bytes(data: bytes, options: Options | None = None) -> list[FailureRecord]:
    """Classify a complete output held in memory."""
    c = Classifier(options)
    c.feed(data)
    return c.close()


def classify_text(text: str, options: Options | None = None) -> list[FailureRecord]:
    """Classify a complete output given as text."""
    return classify_bytes(text.encode("utf-8", "surrogatepass"), options)
