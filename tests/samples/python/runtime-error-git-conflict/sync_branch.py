"""Merge the release branch into the current one, as a release script does."""
import subprocess


def merge(branch):
    proc = subprocess.run(["git", "merge", branch], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"git merge {branch} failed:\n{proc.stdout.strip()}")


merge("release")
