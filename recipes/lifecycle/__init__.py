"""One attempt's lifecycle as small stages, shared by every front.

    claim ──► plan ──► apply ──► verify ──► settle
    claim.py  planning  applier   judge.py   (recipes/outcome.py: ledger, events,
              (..)      (disk or  undo.py     logs, box)
                        the editor)

- claim.py: the anti-loop rule and "never automatic", each worded once, and
  the settled state of a failure asked about again (no new attempt, no box).
- judge.py: the one definition of recovered: the failure is gone from the
  re-run and the re-run reports nothing new; and of a wrong fix: the same
  failure still reported, or a new failure in a file the fix edited.
- undo.py: a wrong fix never stays: its edit is undone at once, and the box
  says so ("undone: the re-run still failed with ...").

This package imports nothing at its top, so a stage can be imported alone.
"""
