"""A PreToolUse hook that hangs (it waits on a service that never answers)."""

import time

time.sleep(30)
