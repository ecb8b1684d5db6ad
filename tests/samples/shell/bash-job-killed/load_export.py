"""Load every row of the export into memory at once."""
import os
import signal

# stands in for the kernel's OOM killer, which sends SIGKILL to the largest process
os.kill(os.getpid(), signal.SIGKILL)
