import subprocess, sys
from pkg.core import total

def test_total():
    assert total([1, 2]) == 3

def test_cli():
    done = subprocess.run([sys.executable, "-m", "pkg"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
