"""Real Vim as the oracle for errorformat tests: what `:cgetexpr` makes of
some lines under some 'errorformat', as getqflist() reports it.

One Vim process (`vim -es -u NONE`) reads every case from a JSON file and
writes every list back, so hundreds of cases cost one start-up.  The file
names are reported as full paths (`fnamemodify(bufname(nr), ':p')`) under
the working directory the cases ran in.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

VIM = shutil.which("vim")

_SCRIPT = r"""
let s:cases = json_decode(join(readfile('cases.json'), "\n"))
let s:out = []
for s:c in s:cases
  call setqflist([], 'f')
  let &errorformat = 'faultlens-reset %m'
  cgetexpr []
  let &errorformat = s:c.efm
  try
    execute 'cgetexpr s:c.lines'
    let s:items = getqflist()
    for s:it in s:items
      let s:it.file = s:it.bufnr ? fnamemodify(bufname(s:it.bufnr), ':p') : ''
    endfor
    call add(s:out, s:items)
  catch
    call add(s:out, {'error': v:exception})
  endtry
endfor
call writefile([json_encode(s:out)], 'out.json')
qa!
"""


def compiler_errorformats() -> dict[str, str]:
    """Every compiler plugin of Vim's runtime and the 'errorformat' it sets."""
    assert VIM is not None
    script = r"""
let s:out = {}
for s:f in glob($VIMRUNTIME . '/compiler/*.vim', 0, 1)
  let s:name = fnamemodify(s:f, ':t:r')
  setlocal errorformat&
  unlet! b:current_compiler g:current_compiler
  try
    execute 'compiler ' . s:name
    let s:out[s:name] = &l:errorformat
  catch
    let s:out[s:name] = {'error': v:exception}
  endtry
endfor
call writefile([json_encode(s:out)], 'efms.json')
qa!
"""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "efms.vim").write_text(script)
        _run(["-S", "efms.vim"], tmp)
        data: dict[str, Any] = json.loads((Path(tmp) / "efms.json").read_text())
    return {k: v for k, v in data.items() if isinstance(v, str)}


def _run(args: list[str], cwd: str | Path, timeout: float = 300) -> None:
    assert VIM is not None
    try:
        subprocess.run(
            [VIM, "-es", "-u", "NONE", "-i", "NONE", "-N", "--cmd", "set encoding=utf-8", *args],
            cwd=cwd,
            timeout=timeout,
            check=False,
            stdin=subprocess.DEVNULL,
            capture_output=True,
        )
    except subprocess.TimeoutExpired:
        raise AssertionError(f"vim did not finish in {timeout} s (a case it loops on?)") from None


def quickfix_lists(cases: list[tuple[str, list[str]]], cwd: str | Path) -> list[Any]:
    """For each (errorformat, lines): Vim's entries (dicts) or {'error': ...}."""
    cwd = Path(cwd)
    (cwd / "cases.json").write_text(
        json.dumps([{"efm": e, "lines": lines} for e, lines in cases]), encoding="utf-8"
    )
    (cwd / "qf.vim").write_text(_SCRIPT)
    out = cwd / "out.json"
    out.unlink(missing_ok=True)
    _run(["-S", "qf.vim"], cwd)
    if not out.exists():
        raise AssertionError("vim wrote no out.json")
    result: list[Any] = json.loads(out.read_text(encoding="utf-8", errors="surrogateescape"))
    for name in ("cases.json", "qf.vim", "out.json"):
        (cwd / name).unlink(missing_ok=True)
    return result
