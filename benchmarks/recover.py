"""`faultlens run --recover` on a suite with N failures of one cause, beside the
bare command (see docs/benchmarks.md, "Recovering one cause").

    python -m benchmarks.recover                 # 200 failures, pytest and unittest
    python -m benchmarks.recover --tests 20 --repeat 1 --runner unittest

The suite: a `shop` package whose `cart.py` uses `Money` without importing it
and N tests of `cart.total`, so every test fails with the same NameError.
Measured, each on a fresh copy, best of --repeat: the bare command on the
broken suite (the suite's own time), and `faultlens run --recover` (the run,
the one compile attempt, the one verifying re-run).  Target: within 3x.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNNERS = {
    "pytest": [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
    "unittest": [sys.executable, "-m", "unittest"],
}
MONEY = (
    "class Money:\n    def __init__(self, cents):\n        self.cents = cents\n\n"
    "    def __add__(self, other):\n        return Money(self.cents + other.cents)\n"
)
CART = (
    "def total(prices):\n    acc = Money(0)\n    for p in prices:\n"
    "        acc = acc + Money(p)\n    return acc.cents\n"
)


def make_suite(root: Path, n: int) -> Path:
    """The broken project with `n` tests failing on one missing import."""
    (root / "shop").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / ".git").mkdir()
    (root / "shop" / "__init__.py").write_text("")
    (root / "tests" / "__init__.py").write_text("")
    (root / "shop" / "money.py").write_text(MONEY)
    (root / "shop" / "cart.py").write_text(CART)
    lines = ["import unittest", "", "from shop.cart import total", "", ""]
    lines.append("class CartTest(unittest.TestCase):")
    for i in range(n):
        lines += [f"    def test_total_{i}(self):"]
        lines += [f"        self.assertEqual(total([{i}, 1]), {i + 1})", ""]
    (root / "tests" / "test_cart.py").write_text("\n".join(lines))
    return root


def _timed(argv: list[str], cwd: Path) -> tuple[float, int]:
    start = time.perf_counter()
    res = subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, res.returncode


def measure(runner: str, n: int, repeat: int) -> tuple[float, float, float, int, int]:
    """(bare, `faultlens run`, `faultlens run --recover` seconds, bare exit, recover
    exit), best of `repeat`, each on a fresh copy of the broken suite."""
    cmd = RUNNERS[runner]
    fl = [sys.executable, "-m", "faultlens.cli", "run"]
    best = [float("inf")] * 3
    codes = [-1, -1, -1]
    for _ in range(repeat):
        for i, argv in enumerate((cmd, [*fl, "--", *cmd], [*fl, "--recover", "--", *cmd])):
            with tempfile.TemporaryDirectory(prefix="faultlens-recover-") as tmp:
                proj = make_suite(Path(tmp) / "a", n)
                t, codes[i] = _timed(argv, proj)
                best[i] = min(best[i], t)
                shutil.rmtree(proj, ignore_errors=True)
    return best[0], best[1], best[2], codes[0], codes[2]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tests", type=int, default=200, help="failing tests (default 200)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each, best kept")
    ap.add_argument("--runner", choices=sorted(RUNNERS), action="append")
    args = ap.parse_args(argv)
    print(
        f"| runner ({args.tests} failures, one cause) | bare command | faultlens run"
        " | faultlens run --recover | recover / bare |"
    )
    print("|---|---:|---:|---:|---:|")
    worst = 0.0
    for runner in args.runner or sorted(RUNNERS):
        bare, run, rec, bare_code, rec_code = measure(runner, args.tests, max(1, args.repeat))
        ratio = rec / bare if bare else float("inf")
        worst = max(worst, ratio)
        print(
            f"| {runner} | {bare:.2f} s (exit {bare_code}) | {run:.2f} s"
            f" | {rec:.2f} s (exit {rec_code}) | {ratio:.2f}x |"
        )
    print(f"\nworst ratio {worst:.2f}x (target: within 3x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
