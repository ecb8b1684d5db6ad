"""Issue 12's "Done when" in Node, with the real runners (node:test, mocha,
vitest): one missing import (`Money` used in lib/cart.js, exported by
lib/money.js, never imported) fails 60 tests with `ReferenceError: Money is not
defined` at run time; `faultlens run --recover` reports ONE compile failure at
the throwing line, makes one attempt, adds the import once (in Node's own ES
module form, `./money.js`), calls nothing flaky and exits 0 because the re-run
of the original command passes.

The projects are built in tmp_path (ES modules: "type": "module").  mocha and
vitest come from tools/node (scripts/install-tools.sh test)."""

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
    if runner == "node":
        node = shutil.which("node")
        if node is None:
            pytest.skip("node not installed")
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
