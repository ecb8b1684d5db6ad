"""Classifying a command's output on a worker thread, while it runs.

`faultlens run` copies the command's output through as it comes; feeding the
classifier on the same thread would make the command wait on its full pipe
whenever classification falls behind, and building the classifier first
(imports, compiling every rule) would delay the command's start.  Chunks go
through a bounded queue instead (at most QUEUE_CHUNKS chunks of at most about
1 MiB are held), and the classifier is built on the worker.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from faultlens.classifier.engine import Classifier

QUEUE_CHUNKS = 64


class BackgroundClassifier:
    """feed() from the copying thread; finish() returns the fed classifier
    (not yet closed).  An error on the worker is raised by finish()."""

    def __init__(self, *, cwd: str, task: str | None, command: Sequence[str]) -> None:
        self._queue: queue.Queue[bytes | None] = queue.Queue(maxsize=QUEUE_CHUNKS)
        self._classifier: Classifier | None = None
        self._error: BaseException | None = None
        self._args = (cwd, task, list(command))
        self._thread = threading.Thread(target=self._work, name="faultlens-classify", daemon=True)
        self._thread.start()

    def _work(self) -> None:
        try:
            from faultlens.classifier.engine import Classifier, Options

            cwd, task, command = self._args
            classifier = Classifier(Options(cwd=cwd, task=task, command=command))
            while (chunk := self._queue.get()) is not None:
                classifier.feed(chunk)
            self._classifier = classifier
        except BaseException as exc:  # reported by finish(); keep draining
            self._error = exc
            while self._queue.get() is not None:
                pass

    def feed(self, chunk: bytes) -> None:
        self._queue.put(chunk)

    def finish(self) -> Classifier:
        self._queue.put(None)
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._classifier is not None
        return self._classifier
