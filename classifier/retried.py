"""A run that succeeded after its own retries failed nothing.

A CI step that waits for a service (`curl --retry`, a health check polled
until it answers 200), a client that reconnects after a refused or reset
connection, an agent CLI that backs off after a 429: the output shows the
transient errors, the exit status 0 shows they were overcome.  Those
records (hint["transient"] is True) are dropped when the run is known to
have succeeded; a permanent failure, or any record of a run whose status is
unknown (a saved log) or non-zero, is kept.

Pure: the caller hands over the records and the exit status.
"""

from __future__ import annotations

from .record import FailureRecord


def retried_to_success(record: FailureRecord, exit_code: int | None) -> bool:
    """Whether a record is a transient error the successful run got past."""
    return exit_code == 0 and record.hint.get("transient") is True
