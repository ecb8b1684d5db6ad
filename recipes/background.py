"""Classifying a command's output on a worker thread, while it runs.

`faultlens run` (recipes/observe.py) copies the command's output through as it comes; feeding the
classifier on the same thread would make the command wait on its full pipe
whenever classification falls behind, and building the classifier first
(imports, compiling every rule) would delay the command's start.  Chunks go
through a bounded queue instead (at most QUEUE_CHUNKS chunks of at most about
1 MiB are held), and the classifier is built on the worker, then the modules
the end of the run needs are imported there too.

The classifier is fed in batches of FEED_BYTES (chunks joined only after a
line end), as `faultlens classify` reads a file: the engine's fixed cost per
feed (the look-behind it keeps) is paid once per MiB, not once per pipe read
(100 MB printed at 10 MB/s: 0.3-0.8 s less CPU).  Nobody reads the records
before the command ends, so the worker waits for a full batch; at the end it
has at most one batch left to classify (about 15 ms).
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from faultlens.classifier.structured import Recogniser

QUEUE_CHUNKS = 64
FEED_BYTES = 1 << 20


def _warm_up() -> None:
    """Import what closing the classifier and logging its records will need,
    while the command still runs."""
    import faultlens.classifier.postprocess
    import faultlens.recipes.events  # noqa: F401


class BackgroundClassifier:
    """feed() from the copying thread; finish() returns the fed classifier
    (not yet closed).  An error on the worker is raised by finish()."""

    def __init__(self, *, cwd: str, task: str | None, command: Sequence[str]) -> None:
        self._queue: queue.Queue[bytes | None] = queue.Queue(maxsize=QUEUE_CHUNKS)
        self._classifier: Recogniser | None = None
        self._error: BaseException | None = None
        self._ended = False  # the end marker was taken from the queue
        self._stop = threading.Event()  # the run was interrupted: stop feeding
        self._args = (cwd, task, list(command))
        self._thread = threading.Thread(target=self._work, name="faultlens-classify", daemon=True)
        self._thread.start()

    def _work(self) -> None:
        try:
            from faultlens.classifier.engine import Options
            from faultlens.classifier.structured import Recogniser

            cwd, task, command = self._args
            # structured reports first, as every output (recipes/observe.py)
            classifier = Recogniser(Options(cwd=cwd, task=task, command=command))
            if self._stop.is_set():
                return
            _warm_up()
            for data in self._batches():
                classifier.feed(data)
            self._classifier = classifier
        except BaseException as exc:  # reported by finish(); keep draining
            self._error = exc
            while not self._ended and not self._stop.is_set():
                self._ended = self._queue.get() is None

    def _batches(self) -> Iterator[bytes]:
        """The queued chunks, in order, until the end, joined into batches of
        FEED_BYTES (a chunk without a line end, a piece of a long line, ends
        its batch, as it would end a feed)."""
        get = self._queue.get
        while not self._ended and not self._stop.is_set():
            chunk = get()
            if chunk is None:
                self._ended = True
                return
            parts = [chunk]
            size = len(chunk)
            while size < FEED_BYTES and parts[-1].endswith(b"\n"):
                more = get()
                if more is None:
                    self._ended = True
                    break
                parts.append(more)
                size += len(more)
            yield parts[0] if len(parts) == 1 else b"".join(parts)

    def feed(self, chunk: bytes) -> None:
        self._queue.put(chunk)

    def abandon(self, timeout: float = 10.0) -> None:
        """The run was interrupted: stop the worker and wait for it.  The
        interpreter must not start shutting down while the worker is in the
        middle of importing the classifier (extension modules: the automaton, Hyperscan):
        that crashed the process at exit (SIGSEGV) or lost its exit status."""
        self._stop.set()
        with contextlib.suppress(queue.Full):  # a full queue: the worker sees the flag
            self._queue.put_nowait(None)
        self._thread.join(timeout)

    def finish(self) -> Recogniser:
        self._queue.put(None)
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._classifier is not None
        return self._classifier
