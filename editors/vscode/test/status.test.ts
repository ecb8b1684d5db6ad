import "./helpers/register";

import * as assert from "node:assert/strict";
import { test } from "node:test";

import { countByType, formatStatus, typesFromDiagnostics, typesFromFailures } from "../src/status";

test("failure types are read from the server's faultlens/failures answer", () => {
  const answer = {
    failures: [
      { record: { failure_type: "compile" }, task: "build", uri: "file:///w/a.py", line: 3 },
      { record: { failure_type: "test" }, task: "build", uri: null, line: null },
      { record: { failure_type: "compile" }, task: "build" },
    ],
  };
  assert.deepEqual(typesFromFailures(answer), ["compile", "test", "compile"]);
  assert.equal(typesFromFailures(null), undefined);
  assert.equal(typesFromFailures({ error: "x" }), undefined);
});

test("only faultlens diagnostics are counted, by their code", () => {
  const types = typesFromDiagnostics([
    [
      { source: "faultlens", code: "compile" },
      { source: "ts", code: 2304 },
      { source: "faultlens", code: { value: "infra" } },
    ],
    [{ source: "faultlens", code: "compile" }],
    [{ source: "faultlens: run:tsc --watch -p .", code: "compile" }, { source: "faultlensx", code: "x" }],
  ]);
  assert.deepEqual(types, ["compile", "infra", "compile", "compile"]);
});

test("counts follow the taxonomy's order", () => {
  assert.deepEqual(countByType(["infra", "compile", "test", "compile"]), [
    ["compile", 2],
    ["test", 1],
    ["infra", 1],
  ]);
});

test("the status text shows counts by category, with an error icon for blocking ones", () => {
  const s = formatStatus([["compile", 2], ["test", 1]], "running");
  assert.equal(s.text, "$(error) compile 2 · test 1");
  assert.match(s.tooltip, /3 failures/);
  assert.equal(formatStatus([["mcp_startup", 1]], "running").text, "$(warning) mcp_startup 1");
  assert.equal(formatStatus([], "running").text, "$(check) faultlens");
  assert.match(formatStatus([], "missing").tooltip, /pip install faultlens/);
});
