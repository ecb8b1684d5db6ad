"""The prefilter's scanners: where a rule's trigger occurs in raw output bytes.

Every rule names literal triggers, and a line holding none of them is never
decoded (classifier/engine.py).  Finding them is a multi-literal search over
every byte of the output, the one cost that grows with its size, so the
scanner used depends on how much has been read:

* the Aho-Corasick NFA of ahocorasick_rs builds in ~3 ms and reads the first
  MB: a hook call, most runs;
* from the second MB, its DFA: ~13 ms to build, 2-3 times faster to scan;
* past HYPERSCAN_AFTER, or from the second MB when a compiled one is cached,
  a Hyperscan (Vectorscan) database in literal mode, which scans the same
  triggers about twice as fast again (~500 against ~250 MB/s over the 3,250
  built-in triggers: its SIMD literal matcher skips most bytes that the
  automaton must step through).  It takes ~150 ms to compile, so the
  compiled database is kept in the cache folder (classifier/cachefile.py),
  keyed by the triggers, the library's version and the machine, and loads
  in well under a millisecond after that.

Every scanner reports every occurrence of every trigger, overlapping, as
(trigger index, start, end).  Hyperscan reports them in the order they end;
the engine needs them in the order of their lines, which is the same order
as long as no trigger holds a line end, so a trigger list with one (a
project rule's) is never given to it.  Hyperscan is optional (wheels exist
for the common platforms): without it, or when it fails, the DFA does the
work, with the same results.
"""

from __future__ import annotations

import hashlib
import logging
import platform
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from . import cachefile

if TYPE_CHECKING:
    from ahocorasick_rs import BytesAhoCorasick

log = logging.getLogger(__name__)

DFA_AFTER = 1 << 20  # bytes read before the DFA is built (one engine chunk)
# Bytes read before a Hyperscan database is compiled when none is cached:
# its ~150 ms pay for themselves after ~60 MB read at the DFA's speed.
HYPERSCAN_AFTER = 32 << 20
CACHE_PREFIX = "prefilter-"
CACHE_FILES = 4  # compiled databases kept (one per trigger set in use)

Match = tuple[int, int, int]  # (trigger index, start, end)


class Scanner(Protocol):
    """Finds every occurrence of every trigger (ahocorasick_rs' method name)."""

    def find_matches_as_indexes(self, haystack: bytes, overlapping: bool = ...) -> list[Match]: ...


@lru_cache(maxsize=32)
def automaton(triggers: tuple[bytes, ...], dfa: bool) -> BytesAhoCorasick:
    """The Aho-Corasick automaton of `triggers`, NFA or DFA (built once, shared).

    The DFA scans 2-3 times faster than the library's default NFA (the
    triggers share no rare byte, so neither gets a prefilter of its own) but
    takes ~13 ms to build against ~3 ms.  Both report the same matches with
    the same pattern indexes."""
    from ahocorasick_rs import BytesAhoCorasick, Implementation

    kind = Implementation.DFA if dfa else None
    return BytesAhoCorasick(triggers or (b"\x00never\x00",), implementation=kind)


class HyperscanScanner:
    """A compiled Hyperscan database of literal triggers, with a scratch
    space per thread (a scratch serves one scan at a time)."""

    def __init__(self, db: Any, lengths: Sequence[int], fallback: Callable[[], Scanner]) -> None:
        self._db = db
        self._lengths = tuple(lengths)
        self._fallback = fallback
        self._local = threading.local()

    def find_matches_as_indexes(self, haystack: bytes, overlapping: bool = True) -> list[Match]:
        import hyperscan

        scratch = getattr(self._local, "scratch", None)
        if scratch is None:
            scratch = self._local.scratch = hyperscan.Scratch(self._db)
        found: list[Match] = []
        add = found.append
        lengths = self._lengths

        def on_match(idx: int, _start: int, end: int, _flags: int, _context: object) -> None:
            add((idx, end - lengths[idx], end))  # literal mode: the start is known

        try:
            self._db.scan(haystack, scratch=scratch, match_event_handler=on_match)
        except hyperscan.error as exc:  # never lose output to the faster path
            log.warning("hyperscan scan failed (%s); the DFA reads this chunk", exc)
            return self._fallback().find_matches_as_indexes(haystack, overlapping=True)
        return found


def _cache_name(triggers: Sequence[bytes], version: str) -> str:
    h = hashlib.sha256(f"{version}\0{platform.machine()}\0".encode())
    for t in triggers:
        h.update(len(t).to_bytes(4, "little") + t)
    return f"{CACHE_PREFIX}{h.hexdigest()[:24]}.hsdb"


def hyperscan_database(triggers: Sequence[bytes], *, compile_: bool) -> Any | None:
    """The triggers' Hyperscan database: the cached one, else (`compile_`)
    compiled now and cached; None without Hyperscan, or when there is none
    to load and `compile_` is false, or when it will not compile."""
    try:
        import hyperscan
    except ImportError:
        return None
    if not triggers:
        return None
    version = str(getattr(hyperscan, "__version__", "?"))
    name = _cache_name(triggers, version)
    blob = cachefile.read(name)
    if blob is not None:
        try:
            return hyperscan.loadb(blob, mode=hyperscan.HS_MODE_BLOCK)
        except hyperscan.error:  # another build of the library, another CPU
            pass
    if not compile_:
        return None
    db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    try:
        db.compile(
            expressions=list(triggers),
            ids=list(range(len(triggers))),
            elements=len(triggers),
            flags=[0] * len(triggers),
            literal=True,
        )
    except hyperscan.error as exc:
        log.info("the triggers do not compile for hyperscan (%s): the DFA reads", exc)
        return None
    if cachefile.write(name, hyperscan.dumpb(db)):
        cachefile.prune(CACHE_PREFIX, name, CACHE_FILES)
    return db


class Prefilter:
    """The scanners of one trigger list, each built when first wanted."""

    __slots__ = ("_dfa", "_fast", "_fast_tried", "_lock", "_nfa", "fast_allowed", "triggers")

    def __init__(self, triggers: tuple[bytes, ...], *, cross_line: bool) -> None:
        self.triggers = triggers
        # Hyperscan reports by end offset: only for triggers within a line.
        self.fast_allowed = not cross_line
        self._nfa: BytesAhoCorasick | None = None
        self._dfa: BytesAhoCorasick | None = None
        self._fast: HyperscanScanner | None = None
        self._fast_tried = 0  # 1: a cached database was looked for, 2: compiling was tried
        self._lock = threading.Lock()

    def short(self) -> Scanner:
        """Whichever scanner is built, else the NFA (for one line, a short output)."""
        found: Scanner | None = self._fast or self._dfa or self._nfa
        if found is None:
            found = self._nfa = automaton(self.triggers, False)
        return found

    def dfa(self) -> BytesAhoCorasick:
        if self._dfa is None:
            self._dfa = automaton(self.triggers, True)
        return self._dfa

    def for_size(self, bytes_read: int) -> Scanner:
        """The scanner for an output of which `bytes_read` bytes were read."""
        if bytes_read <= DFA_AFTER:
            return self.short()
        want = 2 if bytes_read > HYPERSCAN_AFTER else 1  # compile, or only load
        if self._fast is None and self.fast_allowed and want > self._fast_tried:
            with self._lock:
                self._try_fast(want)
        return self._fast or self.dfa()

    def _try_fast(self, want: int) -> None:
        if self._fast is not None or self._fast_tried >= want:
            return
        db = hyperscan_database(self.triggers, compile_=want >= 2)
        self._fast_tried = want
        if db is not None:
            self._fast = HyperscanScanner(db, [len(t) for t in self.triggers], self.dfa)
