"""The compile recipe in CommonJS files: a `ReferenceError: X is not defined`
raised at run time (mocha, node:test, jest) is fixed with a `require` in the
file's own style, from the workspace module that exports X (named or as the
whole module), a declared package whose usual binding is X, or a Node
built-in.  The real-output cases are tests/samples/js_test/*; the shapes of
`module.exports` are Node's own (what its loader and cjs-module-lexer read)."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_bytes
from faultlens.recipes import Workspace
from faultlens.recipes.edits import apply_to_text
from faultlens.recipes.fixes import cjs_exports, cjs_imports
from faultlens.recipes.model import Plan, Refusal
from faultlens.recipes.planning import plan

SAMPLES = Path(__file__).parent / "samples"


def _sample_record(case: str, tmp_path: Path):
    proj = tmp_path / "proj"
    shutil.copytree(SAMPLES / case, proj)
    recs = classify_bytes((proj / "output.txt").read_bytes(), Options(cwd=str(proj)))
    (rec,) = [r for r in recs if r.failure_type.value == "compile"]
    return proj, rec


def test_mocha_reference_error_gets_a_require_in_the_files_own_style(tmp_path):
    """mocha 12 on a CommonJS module whose `require('./money')` was removed:
    `module.exports = { Money }` in src/money.js is found, and the require goes
    after the file's header comment, with its semicolons and double quotes."""
    proj, rec = _sample_record("js_test/mocha-reference-error-in-module", tmp_path)
    assert (rec.source_file, rec.hint["name"]) == ("src/cart.js", "Money")
    result = plan(rec, Workspace.at(proj))
    assert isinstance(result, Plan), result
    assert result.title == "Require Money from './money'"
    text = (proj / "src" / "cart.js").read_text()
    fixed = apply_to_text(text, result.edits)
    assert fixed.splitlines()[:4] == [
        "// The require of ./money was removed by mistake.",
        "",
        'const { Money } = require("./money");',
        "",
    ]
    # Planned again on the fixed file: nothing to add (an import is never added twice).
    (proj / "src" / "cart.js").write_text(fixed)
    again = plan(rec, Workspace.at(proj))
    assert isinstance(again, Plan) and again.edits == []


@pytest.mark.parametrize(
    ("source", "kind"),
    [
        ("module.exports = { Money }\n", "named"),
        ("module.exports = {\n  total,\n  Money: Money,\n  other () {}\n};\n", "named"),
        ("module.exports = { other, ...rest }\n", None),
        ("exports.Money = class {}\n", "named"),
        ("module.exports.Money = Money;\n", "named"),
        ("exports['Money'] = M\n", "named"),
        ('Object.defineProperty(exports, "Money", { get: () => M });\n', "named"),
        ("module.exports = class Money {}\n", "module"),
        ("module.exports = function Money (x) {}\n", "module"),
        ("class Money {}\nmodule.exports = Money\n", "module"),
        ("module.exports = MoneyBag\n", None),
        ("const x = { Money }\nexports.money = x\n", None),
        ("if (module.exports == Money) {}\n", None),
    ],
)
def test_what_a_commonjs_module_exports(source, kind):
    assert cjs_exports.exports_of(Path("lib/money.js"), source, "Money") == kind


def test_a_module_exported_whole_is_named_by_its_file():
    """fastify-plugin's lib/toCamelCase.js style: `module.exports = (name) => ...`."""
    src = "'use strict'\n\nmodule.exports = (name) => name.replace(/-(.)/g, (m, c) => c)\n"
    assert cjs_exports.exports_of(Path("lib/toCamelCase.js"), src, "toCamelCase") == "module"
    assert cjs_exports.exports_of(Path("lib/toCamelCase/index.js"), src, "toCamelCase") == "module"
    assert cjs_exports.exports_of(Path("lib/other.js"), src, "toCamelCase") is None


@pytest.mark.parametrize(
    ("package", "binding"),
    [
        ("content-type", "contentType"),
        ("@fastify/error", "error"),
        ("child_process", "childProcess"),
        ("safe-buffer", "safeBuffer"),
        ("debug", "debug"),
    ],
)
def test_a_packages_usual_binding_is_its_camel_cased_name(package, binding):
    assert cjs_exports.camel(package) == binding


def _ws(tmp_path: Path, files: dict[str, str]) -> Workspace:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return Workspace.at(tmp_path)


def _plan_for(tmp_path: Path, name: str, file: str) -> Plan | Refusal:
    """The mocha sample's record (a ReferenceError at run time), retargeted at
    `name` in `file` of the workspace built in tmp_path."""
    d = SAMPLES / "js_test/mocha-reference-error-in-module"
    recs = classify_bytes((d / "output.txt").read_bytes(), Options(cwd=str(d)))
    (rec,) = [r for r in recs if r.failure_type.value == "compile"]
    hint = {**rec.hint, "name": name, "test_file": None}
    rec = dataclasses.replace(rec, source_file=file, source_line=1, hint=hint)
    return plan(rec, Workspace.at(tmp_path))


CART = "'use strict';\n\nvar parse = require('./parse');\n\nfunction total() {}\n"


def test_a_declared_package_is_required_before_the_local_modules(tmp_path):
    """jshttp/negotiator's lib/mediaType.js lost `var contentType =
    require('content-type');` (tests/samples/projects/mocha-negotiator-removed-require):
    the package is declared, its usual binding is the missing name."""
    _ws(
        tmp_path,
        {
            "package.json": '{"dependencies": {"content-type": "^1.0.5"}}',
            "lib/parse.js": "module.exports = function parse() {}\n",
            "lib/cart.js": CART,
        },
    )
    result = _plan_for(tmp_path, "contentType", "lib/cart.js")
    assert isinstance(result, Plan), result
    assert result.title == "Require contentType from 'content-type'"
    fixed = apply_to_text(CART, result.edits)
    assert fixed.splitlines()[2:4] == [
        "var contentType = require('content-type');",
        "var parse = require('./parse');",
    ]


def test_a_node_builtin_follows_the_files_node_prefix(tmp_path):
    text = "const fs = require('node:fs')\n\nfunction f () {}\n"
    _ws(tmp_path, {"package.json": "{}", "lib/cart.js": text})
    result = _plan_for(tmp_path, "path", "lib/cart.js")
    assert isinstance(result, Plan), result
    assert apply_to_text(text, result.edits).splitlines()[:2] == [
        "const fs = require('node:fs')",
        "const path = require('node:path')",
    ]


def test_a_whole_module_export_is_required_by_its_name(tmp_path):
    _ws(
        tmp_path,
        {
            "lib/toCamelCase.js": "'use strict'\n\nmodule.exports = function toCamelCase (n) {}\n",
            "index.js": "'use strict'\n\nconst getName = require('./lib/getName')\n\nlet count = 0\n",
            "lib/getName.js": "module.exports = function getName () {}\n",
        },
    )
    result = _plan_for(tmp_path, "toCamelCase", "index.js")
    assert isinstance(result, Plan), result
    text = (tmp_path / "index.js").read_text()
    assert apply_to_text(text, result.edits).splitlines()[2:4] == [
        "const getName = require('./lib/getName')",
        "const toCamelCase = require('./lib/toCamelCase')",
    ]


def test_a_named_export_joins_the_files_destructuring_of_that_module(tmp_path):
    text = 'const { add } = require("./money");\n\nfunction f() {}\n'
    _ws(
        tmp_path,
        {
            "lib/money.js": "exports.add = 1;\nexports.Money = class {};\n",
            "lib/cart.js": text,
        },
    )
    result = _plan_for(tmp_path, "Money", "lib/cart.js")
    assert isinstance(result, Plan), result
    assert apply_to_text(text, result.edits).splitlines()[0] == (
        'const { add, Money } = require("./money");'
    )


def test_an_es_module_cannot_be_required_and_the_refusal_says_so(tmp_path):
    _ws(
        tmp_path,
        {"lib/money.mjs": "export class Money {}\n", "lib/cart.js": CART},
    )
    result = _plan_for(tmp_path, "Money", "lib/cart.js")
    assert isinstance(result, Refusal)
    assert "is exported by an ES module (lib/money.mjs)" in result.reason


def test_an_es_module_importer_imports_a_commonjs_named_export(tmp_path):
    text = "import { add } from './add.js';\n\nexport const f = () => 1;\n"
    _ws(
        tmp_path,
        {
            "package.json": '{"type": "module"}',
            "lib/money.cjs": "module.exports = { Money };\n",
            "lib/add.js": "export const add = 1;\n",
            "lib/cart.js": text,
        },
    )
    result = _plan_for(tmp_path, "Money", "lib/cart.js")
    assert isinstance(result, Plan), result
    assert "import { Money } from './money.cjs';" in apply_to_text(text, result.edits)


def test_a_multi_line_destructuring_require_is_one_statement():
    text = "const {\n  a,\n  b: c\n} = require('./x')\nconst y = require('y')\n\nrun()\n"
    style = cjs_imports.detect_style(text)
    assert (style.decl, style.quote, style.semicolon) == ("const", "'", False)
    prov = cjs_exports.Provider("module", package="z")
    edit = cjs_imports.require_edit("f.js", text, "z", prov, "z", style)
    assert apply_to_text(text, [edit]).splitlines()[4:6] == [
        "const y = require('y')",
        "const z = require('z')",
    ]
    assert cjs_imports.binds(text, "c") and not cjs_imports.binds(text, "b")


@pytest.mark.real_tool
def test_a_misspelt_name_under_a_js_test_runner_is_the_one_declared_near_it(tmp_path):
    """node prints no suggestion for a ReferenceError: the one name the file
    declares one or two edits away is put in its place (real `node --test`)."""
    import shutil

    from .helpers import run_recover_in_process

    node = shutil.which("node")
    if node is None:
        pytest.skip("node not installed")
    (tmp_path / ".git").mkdir()
    (tmp_path / "package.json").write_text('{"name": "t", "private": true}\n')
    (tmp_path / "lib.js").write_text(
        "'use strict'\n\nconst cookieValueRegExp = /^[\\w=]*$/\n\n"
        "function valid (value) {\n  return cookieValueRegxEp.test(value)\n}\n\n"
        "module.exports = { valid }\n"
    )
    (tmp_path / "lib.test.js").write_text(
        "const test = require('node:test')\nconst assert = require('node:assert')\n"
        "const { valid } = require('./lib')\n\ntest('valid', () => {\n"
        "  assert.strictEqual(valid('a=b'), true)\n})\n"
    )
    report, _ = run_recover_in_process([node, "--test", "lib.test.js"], tmp_path, "T")
    outcomes = [o for o in report.outcomes if o.record.failure_type.value == "compile"]
    assert outcomes and outcomes[0].result == "recovered", [o.reason for o in report.outcomes]
    assert outcomes[0].tried == "Change 'cookieValueRegxEp' to 'cookieValueRegExp'"
    assert "return cookieValueRegExp.test(value)" in (tmp_path / "lib.js").read_text()


@pytest.mark.real_tool
@pytest.mark.parametrize(
    ("file", "body", "added"),
    [
        ("main.mjs", "", "import { readFileSync } from 'node:fs'\n"),
        ("main.js", "'use strict'\n", "const { readFileSync } = require('fs')"),
    ],
)
def test_a_name_one_node_built_in_exports_is_imported_in_the_files_style(
    tmp_path, file, body, added
):
    """Asked of node itself: `readFileSync` is exported by fs alone."""
    import shutil

    from .helpers import run_recover_in_process

    node = shutil.which("node")
    if node is None:
        pytest.skip("node not installed")
    (tmp_path / ".git").mkdir()
    (tmp_path / "package.json").write_text('{"name": "t", "private": true}\n')
    (tmp_path / "data.txt").write_text("ok\n")
    (tmp_path / file).write_text(
        body
        + "console.log(readFileSync(new URL('./data.txt', 'file://' + process.cwd() + '/'), 'utf8'))\n"
    )
    report, _ = run_recover_in_process([node, file], tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert added in (tmp_path / file).read_text()


@pytest.mark.real_tool
def test_a_dropped_parenthesis_is_put_back_where_node_then_parses_the_file(tmp_path):
    import shutil

    from .helpers import run_recover_in_process

    node = shutil.which("node")
    if node is None:
        pytest.skip("node not installed")
    (tmp_path / ".git").mkdir()
    (tmp_path / "package.json").write_text('{"name": "t", "private": true}\n')
    (tmp_path / "main.js").write_text(
        "function decode (str) {\n  return str.indexOf('%') !== -1\n"
        "    ? decodeURIComponent(str\n    : str\n}\n\nconsole.log(decode('a%20b'))\n"
    )
    report, _ = run_recover_in_process([node, "main.js"], tmp_path, "T")
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert "    ? decodeURIComponent(str)\n" in (tmp_path / "main.js").read_text()


def test_a_misspelt_parameter_is_the_one_name_visible_in_its_function(tmp_path):
    """mocha 10 on `function serialize (name, vaule)` using `value`: the file
    has a `value` of its own elsewhere (parse's), so the file-wide rule
    (the name once in the file) does not hold; in serialize's scope `value`
    appears once and `vaule` is the one visible name near it."""
    proj, rec = _sample_record("js_test/mocha-reference-error-misspelt-parameter", tmp_path)
    assert (rec.source_file, rec.hint["name"]) == ("lib/cookie.js", "value")
    result = plan(rec, Workspace.at(proj))
    assert isinstance(result, Plan), result
    assert result.title == "Change 'value' to 'vaule'"
    fixed = apply_to_text((proj / "lib" / "cookie.js").read_text(), result.edits)
    assert "  return name + '=' + encodeURIComponent(vaule)\n" in fixed
    assert "  return { name: str.slice(0, eq), value: value }\n" in fixed


def test_names_visible_in_a_function_tie_is_no_edit_and_names_them():
    """`val` in a function whose parameter is `vla`: Node's global `eval` is as
    near (one edit each), so no name is chosen; both are the candidates."""
    from faultlens.recipes.planners.compile_names import js_near_miss

    text = (
        "function parse (val) {\n  return val.trim()\n}\n\n"
        "function serialize (name, vla) {\n  return name + '=' + val\n}\n"
    )
    notes: list[str] = []
    if shutil.which("node") is None:
        pytest.skip("node not installed")
    assert js_near_miss(text, 6, "val", notes) is None
    assert notes == ["several names in scope are as near to 'val': eval, vla"]


@pytest.mark.real_tool
def test_a_paren_dropped_after_a_string_goes_after_the_string(tmp_path):
    """node's "missing ) after argument list" on `throw new TypeError('...'`
    (real mocha output): the `)` goes after the string, where node --check
    then parses the file, not before it."""
    if shutil.which("node") is None:
        pytest.skip("node not installed")
    import re

    name = "mocha-syntax-error-string-then-missing-paren"
    proj = tmp_path / "proj"
    shutil.copytree(SAMPLES / "js_test" / name, proj)
    # node prints the module's absolute path: the folder it was captured in becomes the copy
    out = re.sub(rf"/\S*/{name}(?=/)", str(proj), (proj / "output.txt").read_text())
    (rec,) = classify_bytes(out.encode(), Options(cwd=str(proj)))
    assert rec.source_file == "lib/age.js"
    result = plan(rec, Workspace.at(proj))
    assert isinstance(result, Plan), result
    fixed = apply_to_text((proj / "lib" / "age.js").read_text(), result.edits)
    assert "    throw new TypeError('option maxAge is invalid')\n" in fixed
