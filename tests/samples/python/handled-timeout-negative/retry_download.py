"""Retry a slow step once after a timeout; log what happened."""
import subprocess
import sys
import traceback

for attempt in (1, 2):
    try:
        subprocess.run([sys.executable, "-c", "import time; time.sleep(%d)" % (6 - 3 * attempt)], timeout=2)
        print(f"attempt {attempt}: ok")
        break
    except subprocess.TimeoutExpired as exc:
        print(f"attempt {attempt}: {exc}; retrying (MemoryError and CUDA out of memory are not retried)")
