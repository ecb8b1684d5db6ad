"""Issue 12's "Done when" in Node, with the real runners (node:test, mocha,
vitest): one missing import (`Money` used in lib/cart.js, exported by
lib/money.js, never imported) fails 60 tests with `ReferenceError: Money is not
defined` at run time; `faultlens run --recover` reports ONE compile failure at
the throwing line, makes one attempt, adds the import once (in Node's own ES
module form, `./money.js`), calls nothing flaky and exits 0 because the re-run
of the original command passes.

The projects are built in tmp_path, as ES modules ("type": "module") and, for
node:test and mocha, as CommonJS (`module.exports = { Money }`, required with
`const { total } = require(...)`): there the import added is a require in the
file's own style, `const { Money } = require('./money')`, beside its other
requires.  mocha and vitest come from tools/node (scripts/install-tools.sh
test).  node:test runs both with `--test-reporter=spec` and with its default
reporter, which under Node 20 is TAP when stdout is not a terminal (what
`faultlens run` sees)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from .helpers import run_recover_in_process

pytestmark = pytest.mark.real_tool

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / "tools" / "node" / "node_modules" / ".bin"
N = 60
MONEY = """export class Money {
  constructor(cents) {
    this.cents = cents;
  }
  add(other) {
    return new Money(this.cents + other.cents);
  }
}
"""
CART = """export function total(prices) {
  let acc = new Money(0);
  for (const p of prices) {
    acc = acc.add(new Money(p));
  }
  return acc.cents;
}
"""


def _tool(name: str) -> str:
    local = BIN / name
    if local.exists():
        return str(local)
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} not installed (scripts/install-tools.sh test)")
    return found


CJS_MONEY = """'use strict'

class Money {
  constructor (cents) {
    this.cents = cents
  }

  add (other) {
    return new Money(this.cents + other.cents)
  }
}

module.exports = { Money }
"""
CJS_CART = """'use strict'

const { round } = require('./round')

function total (prices) {
  let acc = new Money(0)
  for (const p of prices) {
    acc = acc.add(new Money(p))
  }
  return round(acc.cents)
}

module.exports = { total }
"""
CJS_ROUND = "'use strict'\n\nexports.round = function round (cents) { return Math.round(cents) }\n"


def _cjs_project(root: Path, runner: str) -> Path:
    (root / "lib").mkdir(parents=True)
    (root / "test").mkdir()
    (root / ".git").mkdir()
    (root / "package.json").write_text('{"name": "shop", "private": true}\n')
    (root / "lib" / "money.js").write_text(CJS_MONEY)
    (root / "lib" / "cart.js").write_text(CJS_CART)
    (root / "lib" / "round.js").write_text(CJS_ROUND)
    head = ["'use strict'", "", "const assert = require('node:assert')"]
    if runner.startswith("node"):
        head.append("const { describe, it } = require('node:test')")
    body = [*head, "const { total } = require('../lib/cart')", "", "describe('cart', () => {"]
    for i in range(N):
        body.append(f"  it('totals {i}', () => {{ assert.strictEqual(total([{i}, 1]), {i + 1}) }})")
    body.append("})")
    (root / "test" / "cart.test.js").write_text("\n".join(body) + "\n")
    return root


def _project(root: Path, runner: str) -> Path:
    (root / "lib").mkdir(parents=True)
    (root / "test").mkdir()
    (root / ".git").mkdir()
    (root / "package.json").write_text('{"name": "shop", "private": true, "type": "module"}\n')
    (root / "lib" / "money.js").write_text(MONEY)
    (root / "lib" / "cart.js").write_text(CART)
    head = {
        "node": "import assert from 'node:assert';\nimport { describe, it } from 'node:test';",
        "mocha": "import assert from 'node:assert';",
        "vitest": "import { describe, it } from 'vitest';\nimport assert from 'node:assert';",
    }[runner]
    body = [head, "import { total } from '../lib/cart.js';", "", "describe('cart', () => {"]
    for i in range(N):
        body.append(
            f"  it('totals {i}', () => {{ assert.strictEqual(total([{i}, 1]), {i + 1}); }});"
        )
    body.append("});")
    (root / "test" / "cart.test.js").write_text("\n".join(body) + "\n")
    return root


def _command(runner: str) -> list[str]:
    if runner.startswith("node"):
        node = shutil.which("node")
        if node is None:
            pytest.skip("node not installed")
        if runner == "node-tap":  # the default reporter: TAP when not on a terminal
            return [node, "--test", "test/"]
        return [node, "--test", "--test-reporter=spec", "test/"]
    if runner == "mocha":
        return [_tool("mocha"), "test/"]
    return [_tool("vitest"), "run"]


@pytest.mark.parametrize("runner", ["node", "mocha", "vitest"])
def test_one_missing_import_failing_60_tests_is_one_attempt_and_exit_0(tmp_path, runner):
    proj = _project(tmp_path / "proj", runner)
    report, ws = run_recover_in_process(_command(runner), proj, "TASK-1")
    assert report.exit_code == 0, [(o.result, o.reason) for o in report.outcomes]
    (outcome,) = report.outcomes
    rec = outcome.record
    assert rec.failure_type.value == "compile"
    assert (rec.source_file, rec.source_line) == ("lib/cart.js", 2)  # the throwing line
    assert rec.affected == N
    assert outcome.result == "recovered"
    assert outcome.tried == "Import Money from './money.js'"
    cart = (proj / "lib" / "cart.js").read_text()
    assert cart.count("import { Money } from './money.js';") == 1
    db = sqlite3.connect(ws.state / "ledger.sqlite3")
    assert db.execute("SELECT failure_type, state FROM type_attempts").fetchall() == [
        ("compile", "recovered")
    ]
    events = [json.loads(x) for x in (ws.state / "events.jsonl").read_text().splitlines()]
    assert not any("flaky" in (e.get("reason") or "") for e in events)
    assert report.reruns == 1


@pytest.mark.parametrize("runner", ["node", "node-tap", "mocha"])
def test_one_missing_require_failing_60_tests_adds_the_require_once_in_the_files_style(
    tmp_path, runner
):
    proj = _cjs_project(tmp_path / "proj", runner)
    report, ws = run_recover_in_process(_command(runner), proj, "TASK-1")
    assert report.exit_code == 0, [(o.result, o.reason) for o in report.outcomes]
    (outcome,) = report.outcomes
    rec = outcome.record
    assert rec.failure_type.value == "compile"
    assert (rec.source_file, rec.source_line) == ("lib/cart.js", 6)  # the throwing line
    assert rec.affected == N
    tests = [loc.test for loc in rec.related if loc.test]
    assert tests[:2] == ["cart totals 0", "cart totals 1"] and len(tests) == N
    assert outcome.result == "recovered"
    assert outcome.tried == "Require Money from './money'"
    cart = (proj / "lib" / "cart.js").read_text()
    assert cart == CJS_CART.replace(
        "const { round } = require('./round')\n",
        "const { round } = require('./round')\nconst { Money } = require('./money')\n",
    )
    db = sqlite3.connect(ws.state / "ledger.sqlite3")
    assert db.execute("SELECT failure_type, state FROM type_attempts").fetchall() == [
        ("compile", "recovered")
    ]
    events = [json.loads(x) for x in (ws.state / "events.jsonl").read_text().splitlines()]
    assert not any("flaky" in (e.get("reason") or "") for e in events)
    assert report.reruns == 1
