"""Wait for a slow download step with a time limit."""
import subprocess
import sys

subprocess.run([sys.executable, "-c", "import time; time.sleep(5)"], check=True, timeout=1)
