"""The quickfix parser's directory and file stacks (%D %X, %P %Q), as Vim's
qf_push_dir, qf_pop_dir and qf_guess_filepath keep them.  Pure: the file
system is asked through the `isdir` and `exists` callbacks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .quickfix_text import concat_fnames, is_abs_name


@dataclass(slots=True)
class Stack:
    """A directory (or file) stack, top first."""

    items: list[str] = field(default_factory=list)

    def top(self) -> str | None:
        return self.items[0] if self.items else None

    def push(self, dirbuf: str, isdir: Callable[[str], bool], *, is_file_stack: bool) -> str | None:
        """qf_push_dir."""
        items = self.items
        if is_abs_name(dirbuf) or not items or is_file_stack:
            items.insert(0, dirbuf)
            return dirbuf
        found = None
        for k, base in enumerate(items):
            candidate = concat_fnames(base, dirbuf)
            if isdir(candidate):
                found = k
                items.insert(0, candidate)
                break
        if found is None:
            del items[:]
            items.insert(0, dirbuf)
            return dirbuf
        del items[1 : found + 1]  # the directories already left
        return items[0]

    def pop(self) -> str | None:
        if self.items:
            self.items.pop(0)
        return self.top()

    def guess_filepath(self, filename: str, exists: Callable[[str], bool]) -> str | None:
        """qf_guess_filepath: the stacked directory holding `filename`."""
        items = self.items
        if not items:
            return None
        found = None
        for k in range(1, len(items)):
            if exists(concat_fnames(items[k], filename)):
                found = k
                break
        if found is None:
            del items[1:]
            return None
        del items[1:found]
        return items[1]
