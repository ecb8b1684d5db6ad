"""The C heap's thresholds while a large output is classified.

A long output is fed in chunks of about a megabyte, and the complete lines
of each chunk (with the unfinished line the previous one left) are copied
into one new buffer (classifier/text.py `clean_joined`).  glibc serves an
allocation of that size with a fresh mmap whenever it is larger than the
last one freed (its mmap threshold follows the size of the last freed
mapping, and the buffers differ by their unfinished lines), so each chunk's
pages are faulted in anew: 31,808 page faults and about 75 ms on a 200 MB
log, a twentieth of classifying it.  Fixed thresholds (a mapping only above
MMAP_ABOVE, memory returned only above TRIM_ABOVE free) let the heap reuse
the freed buffers.  Set once per process, on glibc only; anywhere else, or
when it cannot be set, nothing changes but speed.
"""

from __future__ import annotations

import os
import sys

MMAP_ABOVE = 4 << 20  # bytes: larger allocations get their own mapping
TRIM_ABOVE = 16 << 20  # bytes: free memory kept at the heap's top before it is returned
_M_TRIM_THRESHOLD = -1  # glibc's mallopt parameters (malloc.h)
_M_MMAP_THRESHOLD = -3
_tuned: list[bool] = []  # (one entry once tried)


def keep_freed_buffers() -> None:
    """Let glibc reuse freed chunk buffers instead of mapping fresh pages."""
    if _tuned:
        return
    _tuned.append(True)
    if not sys.platform.startswith("linux"):
        return
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION"):  # musl and others: left alone
            return
        import ctypes

        libc = ctypes.CDLL(None)
        libc.mallopt(_M_MMAP_THRESHOLD, MMAP_ABOVE)
        libc.mallopt(_M_TRIM_THRESHOLD, TRIM_ABOVE)
    except (OSError, ValueError, AttributeError):
        return
