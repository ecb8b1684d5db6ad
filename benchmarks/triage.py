"""What triage and history cost (see docs/benchmarks.md, "Triage and history").

    python -m benchmarks.triage                 # best of 3
    python -m benchmarks.triage --repeat 1 --runs 200

Measured on real git repositories (a bare remote on disk and two clones of a
small pytest project, built in a temporary folder), best of --repeat:

- the bare command (`python -m pytest`) on the failing clone: the suite's time;
- `faultlens run --recover` where the branch has no upstream (triage answers
  `unknown` with no worktree: the price of asking git), and where the upstream
  fixed the bug (`stale_branch`: a fetch, one worktree with the upstream merged
  in, one re-run there, then the branch sync and the final re-run), and of that
  the triage checks alone (the `check_s` of its `failure.triaged` event);
- `tree_state` (the commit + work-tree key every `faultlens run` takes, on a
  thread beside the command) and `history()` of one failure in a ledger
  holding --runs runs (what a hover adds).

Targets: with no upstream, triage adds less than 0.3 s to `run --recover`
(against `[triage] enabled = false`); a stale branch is recovered within 3x
the bare command plus one worktree.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.triage_repos import (  # noqa: E402 - the repository builder the tests use
    CALC_FIXED,
    MUL,
    PYTEST,
    faultlens_env,
    git,
    make_repos,
)

OFF = "+++\n[triage]\nenabled = false\n+++\n"


def _best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def _check_s(repo: Path) -> float:
    """How long the run's triage checks took, as its failure.triaged event says."""
    for line in (repo / ".faultlens" / "events.jsonl").read_text().splitlines():
        event = json.loads(line)
        if event["event"] == "failure.triaged" and "check_s" in event:
            return float(event["check_s"])
    raise AssertionError("no failure.triaged event with check_s")


def _run(argv: list[str], cwd: Path) -> int:
    return subprocess.run(
        argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=faultlens_env()
    ).returncode


def _recover(cwd: Path) -> int:
    return _run([sys.executable, "-m", "faultlens.cli", "run", "--recover", "--", *PYTEST], cwd)


def _fresh(tmp: Path, name: str, *, upstream: bool, fixed: bool) -> Path:
    (tmp / name).mkdir()
    repos = make_repos(tmp / name)
    repos.commit_local({"mul.py": MUL}, "add mul")
    if fixed:
        repos.commit_upstream({"calc.py": CALC_FIXED}, "fix add")
    if not upstream:
        git(repos.local, "branch", "--unset-upstream")
    return repos.local


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="benchmarks.triage")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--runs", type=int, default=1000, help="runs in the ledger for history()")
    a = p.parse_args(argv)
    os.environ.update({"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONDONTWRITEBYTECODE": "1"})
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"# triage and history, best of {a.repeat}; load average before: {load:.2f}")
    with tempfile.TemporaryDirectory() as raw:
        tmp = Path(raw)
        counter = iter(range(10_000))

        def fresh(**kw: bool) -> Path:
            return _fresh(tmp, f"r{next(counter)}", **kw)

        bare_repo = fresh(upstream=True, fixed=True)
        bare = _best(lambda: _run(PYTEST, bare_repo), a.repeat)
        no_up: list[float] = []
        stale: list[float] = []
        off: list[float] = []
        checks: list[float] = []  # the triage checks alone (failure.triaged's check_s)
        for _ in range(a.repeat):
            repo = fresh(upstream=True, fixed=True)
            (repo / ".faultlens" / "recipes").mkdir(parents=True)
            (repo / ".faultlens" / "recipes" / "test.md").write_text(OFF)
            off.append(_best(lambda repo=repo: _recover(repo), 1))
            repo = fresh(upstream=False, fixed=False)
            no_up.append(_best(lambda repo=repo: _recover(repo), 1))
            repo = fresh(upstream=True, fixed=True)
            start = time.perf_counter()
            code = _recover(repo)
            stale.append(time.perf_counter() - start)
            assert code == 0, "the stale branch was not recovered"
            checks.append(_check_s(repo))
        from faultlens.recipes import Ledger, Workspace, history, treestate

        repo = fresh(upstream=True, fixed=False)
        probe = _best(lambda: treestate.tree_state(repo), max(3, a.repeat))
        ws = Workspace.at(repo)
        ledger = Ledger.open(ws)
        from faultlens.classifier import classify_text

        (rec,) = classify_text("calc.py:2: error: Name 'x' is not defined  [name-defined]\n")
        for _ in range(a.runs):
            run_id = ledger.start_run(None, PYTEST, ".")
            ledger.finish_run(run_id, 1, [rec])
        hist = _best(lambda: history.history(ledger, rec.id), max(3, a.repeat))
        worst = _best(lambda: history.worst(ledger, 20), max(3, a.repeat))
    print()
    print("| what | seconds |")
    print("|---|---|")
    print(f"| bare `python -m pytest` (the suite's own time) | {bare:.3f} |")
    print(f"| `run --recover`, triage off (`[triage] enabled = false`) | {min(off):.3f} |")
    print(f"| `run --recover`, no upstream (triage: unknown, no worktree) | {min(no_up):.3f} |")
    print(f"| `run --recover`, stale branch (fetch, 1 check, sync, final run) | {min(stale):.3f} |")
    print(f"| of which the triage checks (fetch, worktree, re-run, removal) | {min(checks):.3f} |")
    print(f"| `tree_state` (commit + work-tree key) | {probe:.4f} |")
    print(f"| `history()` of one failure seen in {a.runs} runs | {hist:.4f} |")
    print(f"| `worst(20)` over {a.runs} runs | {worst:.4f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
