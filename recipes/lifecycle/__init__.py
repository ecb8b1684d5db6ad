"""One attempt's lifecycle as small stages, shared by every front.

    claim ──► plan ──► apply ──────► verify ────► settle
    claim.py  planning apply.py      finish.py    settle.py (recipes/outcome.py:
              (..)     (an Applier:  judge.py     ledger, events, logs, box)
                       the disk or   undo.py
                       the editor)

- claim.py: the anti-loop rule and "never automatic", each worded once, and
  the settled state of a failure asked about again (no new attempt, no box).
- apply.py: the Applier protocol (where the edits go, what they wrote for a
  revert) and the disk applier; the editor's is server/editor_apply.py.
- finish.py: after the apply, the plan's commands, the verification, the
  judgement and the undo of a wrong fix, then the settle.
- judge.py: the one definition of recovered: the failure is gone from the
  re-run and the re-run reports nothing new; and of a wrong fix: the same
  failure still reported, or a new failure in a file the fix edited.
- undo.py: a wrong fix never stays: its edit is undone at once, and the box
  says so ("undone: the re-run still failed with ...").

This package imports nothing at its top, so a stage can be imported alone.
"""
