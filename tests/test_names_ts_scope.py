"""TypeScript's names: a missing one exported by a module and passed on by a
barrel (`export { Result } from './result'`) is imported from the module
that declares it (recipes/fixes/ts_imports.py; the real output:
tests/samples/typescript/tsc-name-passed-on-by-a-barrel).  Misspelt names in
typed functions (recipes/names/js_scope.py):
a function with a return type (`): string {`) or type parameters (`f<T>(`)
is a scope, and tsc's "Did you mean" yields to a name in scope strictly
nearer than the one it names (tsc counts a swap of two letters as two
edits).  The real output: tests/samples/typescript/tsc-typed-function-misspelt-names
(tsc 5.9.3)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_bytes
from faultlens.recipes import Workspace
from faultlens.recipes.edits import apply_to_text
from faultlens.recipes.model import Plan
from faultlens.recipes.names import js_names, js_scope
from faultlens.recipes.planning import plan

SAMPLES = Path(__file__).parent / "samples" / "typescript"


def _records(case: str, tmp_path: Path):
    proj = tmp_path / "proj"
    shutil.copytree(SAMPLES / case, proj)
    recs = classify_bytes((proj / "output.txt").read_bytes(), Options(cwd=str(proj)))
    return proj, {r.source_line: r for r in recs if r.failure_type.value == "compile"}


def _fixed(case: str, line: int, file: str, title: str, tmp_path: Path) -> str:
    """The sample's file after the plan for its record at `line`, which must
    be a Plan of that title."""
    proj, by_line = _records(case, tmp_path)
    result = plan(by_line[line], Workspace.at(proj))
    assert isinstance(result, Plan), result
    assert result.title == title
    return apply_to_text((proj / file).read_text(), result.edits)


@pytest.fixture
def records(tmp_path):
    return _records("tsc-typed-function-misspelt-names", tmp_path)


def test_a_name_a_barrel_passes_on_is_imported_from_where_it_is_declared(tmp_path):
    proj, by_line = _records("tsc-name-passed-on-by-a-barrel", tmp_path)
    result = plan(by_line[1], Workspace.at(proj))
    assert isinstance(result, Plan), result
    assert result.title == "Import Result from './result'"


def test_a_transposition_in_scope_wins_over_tscs_farther_suggestion(records):
    """`strat`: tsc names `str` (two letters left out); `start`, a local of
    the same function, is one transposition away."""
    proj, by_line = records
    rec = by_line[6]
    assert rec.hint.get("suggestion") == "str"
    result = plan(rec, Workspace.at(proj))
    assert isinstance(result, Plan), result
    assert result.title == "Change 'strat' to 'start'"
    fixed = apply_to_text((proj / "src" / "slice.ts").read_text(), result.edits)
    assert "  while (end > start && str.charCodeAt(end - 1) === 32) end--;\n" in fixed


def test_a_misspelt_local_of_a_function_with_a_return_type_is_found(records):
    """`vl` in `attribute(...): string | undefined {`: tsc names nothing; the
    function's `val` is the one visible name near it (Node's `v8` and `vm`
    are no globals of a script or module)."""
    if shutil.which("node") is None:
        pytest.skip("node not installed")
    proj, by_line = records
    result = plan(by_line[12], Workspace.at(proj))
    assert isinstance(result, Plan), result
    assert result.title == "Change 'vl' to 'val'"


def test_typed_headers_open_functions_and_control_blocks_do_not():
    code = js_names.code_only(
        "function f<T>(a: T, b: number): Promise<T | undefined> {\n  return g(a)\n}\n"
        "const h = async (x: string): Promise<void> => {\n  if (x) {\n    y(x)\n  }\n}\n"
        "function isS(v: unknown): v is string {\n  return typeof v === 'string'\n}\n"
        "switch (k) {\n  case f(1): {\n    break\n  }\n}\n"
    )
    starts = [code[r.start : r.start + 3] for r in js_scope.functions(code)]
    assert starts == ["(a:", "(x:", "(v:"]


def test_node_globals_are_a_scripts_not_the_eval_codes():
    if shutil.which("node") is None:
        pytest.skip("node not installed")
    found = js_names.globals_of_node()
    assert {"process", "Buffer", "setTimeout"} <= found
    assert not {"fs", "v8", "vm", "path"} & found


def test_a_local_declared_misspelt_and_used_right_twice_is_renamed_where_declared(tmp_path):
    """`let sr = ...` then `str += ...` and `return str`: the one declaration
    is the typo (the interface member's `(str: string) => string` binds no
    `str`); each use changed to `sr` would be two edits for one slip."""
    if shutil.which("node") is None:
        pytest.skip("node not installed")
    title = "Rename 'sr' to 'str' where it is declared (line 7)"
    fixed = _fixed("tsc-misspelt-declaration", 9, "src/cookie.ts", title, tmp_path)
    assert '  let str = name + "=" + enc(value);\n' in fixed


def test_one_use_and_one_binding_is_no_declaration_rename():
    text = "function f(a: number): number {\n  const vlue = a + 1\n  return value\n}\n"
    assert js_scope.misspelt_declaration(text, 3, "value") is None


def test_an_overloads_misspelt_implementation_is_renamed_as_tsc_says(tmp_path):
    title = "Change 'prase' to 'parse'"
    fixed = _fixed("tsc-overload-implementation-misspelt", 3, "src/parse.ts", title, tmp_path)
    assert "export function parse(text: string, radix = 10): number {\n" in fixed
