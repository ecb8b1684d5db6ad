"""Poll a service until it answers (it never does here)."""
import time

while True:
    time.sleep(1)
