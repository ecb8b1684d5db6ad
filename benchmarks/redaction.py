"""The log redactor on the benchmark log (`python -m benchmarks.run --only redact`).

`LogRedactor` is what every byte of a server run (`faultlens.run`) and of an
ingested output goes through on its way into `.faultlens/runs/*.log`: one
Aho-Corasick scan of each chunk for the literal text a secret form needs,
then `redact()` on the lines it found.  Timed in-process (CPU time of feed +
close over 64 KiB chunks, best of N), with the one-time cost of reading the
maintained detector set (detect-secrets' plugin files) beside it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

CHUNK = 64 * 1024  # what the server's runner reads at a time


@dataclass(slots=True)
class Redaction:
    seconds: float  # CPU s, best run
    lines_changed: int
    detectors: int  # forms known (ours + the maintained set's)
    maintained: str  # where the maintained set came from
    load_ms: float  # reading and compiling the maintained set


def log_redactor(log: Path, repeat: int) -> Redaction:
    from faultlens.classifier import detectors
    from faultlens.classifier.logredact import LogRedactor

    detectors.maintained.cache_clear()
    start = time.perf_counter()
    found = detectors.maintained()
    load_ms = (time.perf_counter() - start) * 1000
    data = log.read_bytes()

    def once() -> bytes:
        scrub = LogRedactor()
        out = [scrub.feed(data[i : i + CHUNK]) for i in range(0, len(data), CHUNK)]
        out.append(scrub.close())
        return b"".join(out)

    out = once()  # warm: the automaton is built once per process
    best = float("inf")
    for _ in range(max(1, repeat)):
        t = time.process_time()
        once()
        best = min(best, time.process_time() - t)
    changed = sum(a != b for a, b in zip(data.splitlines(), out.splitlines(), strict=True))
    return Redaction(best, changed, len(detectors.detectors()), found.source or "none", load_ms)
