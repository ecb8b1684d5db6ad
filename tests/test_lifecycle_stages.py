"""The attempt's stages (recipes/lifecycle/), tested with fakes and without
processes: the claim's words, the judgement, the verify loop with a fake
re-runner, the undo of a wrong fix, the tally, and a whole attempt whose
re-run is a fake watcher cycle (RecipeSettings.rerun, the re-runner port).

The failure is the real tsc sample tests/samples/typescript/tsc-plain-ts2304
(its captured output, its sources)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_text
from faultlens.classifier.record import FailureRecord, Location
from faultlens.classifier.taxonomy import FailureType, Severity
from faultlens.recipes import Ledger, RecipeSettings, TextEdit, Workspace, apply_edits, attempt
from faultlens.recipes import revert as revert_mod
from faultlens.recipes.lifecycle import claim, tally
from faultlens.recipes.lifecycle.judge import judge
from faultlens.recipes.lifecycle.undo import undo_wrong_fix
from faultlens.recipes.lifecycle.verify_loop import verify_loop
from faultlens.recipes.model import CommandStep, Rerun

pytestmark = pytest.mark.fast
SAMPLE = Path(__file__).resolve().parent / "samples" / "typescript" / "tsc-plain-ts2304"
MIDDLEWARE = "src/auth/middleware.ts"


def _rec(fid: str, file: str = "a.py", frames: tuple[str, ...] = ()) -> FailureRecord:
    """A record as the classifier builds one (only what the judgement reads)."""
    return FailureRecord(
        failure_type=FailureType.COMPILE,
        severity=Severity.BLOCKING,
        signal=f"failure {fid}",
        source_file=file,
        source_line=1,
        auto_recoverable=True,
        recipe="recipes/compile.md",
        id=fid,
        related=[Location(file=f, line=1) for f in frames],
    )


# -- judge: one definition of recovered, and of a wrong fix ----------------------------------
def test_recovered_means_gone_and_nothing_new():
    j = judge(["f1"], [_rec("f2")], known=["f1", "f2"], edited=["a.py"])
    assert j.recovered and j.wrong is None


def test_the_same_failure_again_is_a_wrong_fix_and_its_repeats_are_the_same_failure():
    j = judge(["f1"], [_rec("f1.2")], known=["f1"], edited=["a.py"])
    assert not j.recovered and j.still and j.wrong is not None
    assert j.reason.startswith("still reported when the command was run again")


def test_a_new_failure_through_an_edited_file_is_a_wrong_fix():
    # The circular import: located in pkg/a.py, a frame in pkg/b.py (the edited file).
    new = _rec("n1", "pkg/a.py", frames=("tests/test_b.py", "pkg/b.py"))
    j = judge(["f1"], [new], known=["f1"], edited=["pkg/b.py"])
    assert not j.recovered and j.wrong is new
    assert j.reason.startswith("gone, but the command now reports a new failure")


def test_a_new_failure_elsewhere_fails_verification_but_the_fix_stays():
    j = judge(["f1"], [_rec("n1", "tests/test_x.py")], known=["f1"], edited=["src/x.py"])
    assert not j.recovered and j.wrong is None


def test_paths_are_compared_from_the_reruns_folder_and_the_workspace(tmp_path):
    inside = _rec("n1", "lib/x.py")
    assert judge(["f1"], [inside], known=["f1"], edited=["sub/lib/x.py"], cwd="sub").wrong
    absolute = _rec("n2", str(tmp_path / "sub" / "lib" / "x.py"))
    assert judge(["f1"], [absolute], known=["f1"], edited=["sub/lib/x.py"], root=tmp_path).wrong


def test_without_the_runs_ids_nothing_counts_as_new():
    assert judge(["f1"], [_rec("n1")], known=None).recovered


# -- verify loop with a fake re-runner ----------------------------------------------------------
def test_the_verify_loop_retries_with_its_backoff_until_the_rerun_proves_the_fix():
    slept: list[float] = []
    results = iter([False, False, True])
    looped = verify_loop(
        lambda: next(results), bool, retries=3, backoff=(1.0, 2.0, 4.0), sleep=slept.append
    )
    assert looped.ok and slept == [1.0, 2.0, 4.0]
    assert looped.note == " (after 3 retries)"  # each run after a pause retries the command


def test_the_verify_loop_gives_up_after_its_retries():
    runs: list[int] = []
    looped = verify_loop(lambda: runs.append(1) or False, bool, retries=2, sleep=lambda _s: None)
    assert not looped.ok and len(runs) == 3 and looped.note == " (after 2 retries)"


def test_one_verification_run_says_no_retries():
    looped = verify_loop(lambda: True, bool, sleep=lambda _s: None)
    assert looped.ok and looped.note == ""


# -- claim: the words said once -------------------------------------------------------------
def test_the_anti_loop_rule_and_never_automatic_are_worded_once():
    assert claim.never_automatic("trust_gate") == "trust_gate needs human review: never automatic"
    said = claim.repeat(None)
    assert said.reason == claim.ANTI_LOOP and said.tried == "nothing this time"
    from faultlens.recipes import Refusal

    refused = Refusal("needs human review: a finding", suggestions=["allow-list it"], details=["d"])
    review = claim.review("trust_gate", refused)
    assert review.tried == claim.TRIED_NOTHING_NEVER_AUTOMATIC
    assert review.details == ["d", "Suggested: allow-list it"]


# -- tally: one attempt counted once ----------------------------------------------------------
def test_a_failures_places_count_once_and_the_worst_stands():
    rows = [
        ("f1", "recovered", 0, None),
        ("f1.2", "recovered", 0, None),
        ("f2", "recovered", 0, None),
        ("f2.2", "escalated", 0, None),
        ("sync", "recovered", 0, tally.SYNC_RULE),  # a stale branch's sync: not a failure
        ("f1", "escalated", 1, None),  # a retry's generation: a second attempt
    ]
    assert tally.state_counts(rows) == {"recovered": 1, "escalated": 2}


# -- undo: a wrong fix never stays ------------------------------------------------------------
def test_a_wrong_fix_is_undone_and_only_the_files_named(tmp_path):
    ws = Workspace.at(tmp_path)
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "b.py").write_text("y = 2\n")
    ledger = Ledger.open(ws)
    aid = ledger.claim("f1", "T", "compile")
    assert aid is not None
    written = apply_edits(
        [TextEdit("a.py", 0, 0, 0, 0, "import os\n"), TextEdit("b.py", 0, 0, 0, 0, "import sys\n")],
        ws,
    )
    revert_mod.remember(ledger, written, task="T", failure_ids=["f1"], attempt_ids=[aid])
    assert undo_wrong_fix(ws, ledger, "f1", aid + 1) is None  # another attempt's fix: not ours
    done = undo_wrong_fix(ws, ledger, "f1", aid, files={"a.py"})
    assert done is not None and done.restored == ["a.py"]
    assert (tmp_path / "a.py").read_text() == "x = 1\n"
    assert (tmp_path / "b.py").read_text() == "import sys\ny = 2\n"
    rest = revert_mod.revertable(ledger, "f1")
    assert rest is not None and rest.files == ["b.py"]  # the rest stays revertable


# -- a whole attempt, its re-run a fake watcher cycle -----------------------------------------
def _sample(tmp_path: Path) -> tuple[Path, FailureRecord, str]:
    shutil.copytree(SAMPLE / "src", tmp_path / "src")
    output = (SAMPLE / "output.txt").read_text()
    (rec,) = classify_text(output, Options(cwd=str(tmp_path)))
    rec.task = "T"
    return tmp_path, rec, output


def _cycle(records: list[FailureRecord], code: int) -> object:
    def rerun(step: CommandStep, record: FailureRecord | None) -> Rerun:
        return Rerun(code, records, "", "the watcher's next cycle (fake)")

    return rerun


def test_an_attempt_verified_by_a_fake_cycle_that_still_fails_is_undone(tmp_path):
    proj, rec, output = _sample(tmp_path)
    before = (proj / MIDDLEWARE).read_text()
    again = classify_text(output, Options(cwd=str(proj)))
    ws = Workspace.at(proj, settings=RecipeSettings(rerun=_cycle(again, 2)))  # type: ignore[arg-type]
    out = attempt(rec, ws, command=["tsc", "-p", "."], cwd=".")
    assert out.result == "escalated"
    assert out.reason.startswith("undone: the re-run still failed with error TS2304")
    assert (proj / MIDDLEWARE).read_text() == before
    # Asked again: its settled state, no new attempt.
    second = attempt(rec, ws, command=["tsc", "-p", "."], cwd=".")
    assert second.result == "escalated" and second.reason.startswith("already escalated")
    assert second.box == out.box


def test_an_attempt_verified_by_a_fake_clean_cycle_recovers(tmp_path):
    proj, rec, _ = _sample(tmp_path)
    ws = Workspace.at(proj, settings=RecipeSettings(rerun=_cycle([], 0)))  # type: ignore[arg-type]
    out = attempt(rec, ws, command=["tsc", "-p", "."], cwd=".")
    assert out.result == "recovered", out.reason
    assert "import { UserProfile }" in (proj / MIDDLEWARE).read_text()
    second = attempt(rec, ws, command=["tsc", "-p", "."], cwd=".")
    assert second.result == "recovered" and second.box is None and second.options == []
