import * as assert from "node:assert/strict";
import { test } from "node:test";

import { bundleAt, bundlePythons, fits, type PlanInput, parseVersion, pathCandidates, planLaunch } from "../src/common/launch";

const bundle = { launcher: "/ext/bundled/tool/launch.py", pythons: ["3.11", "3.12", "3.13"] };
const base: PlanInput = { serverPath: "", looked: [], serveArgs: ["serve"], installCommand: "pip install faultlens" };

test("a set serverPath wins over the bundled server", () => {
  const plan = planLaunch({
    ...base,
    serverPath: "/venv/bin/faultlens",
    serverPathResolved: "/venv/bin/faultlens",
    bundle,
    interpreter: { argv: ["/usr/bin/python3"], version: [3, 12], source: "PATH" },
  });
  assert.deepEqual(plan, { kind: "command", command: "/venv/bin/faultlens", args: ["serve"], why: "faultlens.serverPath" });
});

test("a set serverPath that does not exist is reported, with the setting", () => {
  const plan = planLaunch({ ...base, serverPath: "nope", bundle });
  assert.equal(plan.kind, "missing");
  assert.equal(plan.kind === "missing" && plan.setting, "serverPath");
});

test("with no setting the bundled server runs isolated on the interpreter found", () => {
  const plan = planLaunch({
    ...base,
    bundle,
    interpreter: { argv: ["py", "-3"], version: [3, 12], source: "PATH" },
    onPath: "/usr/local/bin/faultlens",
  });
  assert.equal(plan.kind, "command");
  if (plan.kind === "command") {
    assert.equal(plan.command, "py");
    assert.deepEqual(plan.args, ["-3", "-I", "/ext/bundled/tool/launch.py", "serve"]);
    assert.match(plan.why, /bundled server on Python 3\.12/);
  }
});

test("without a fitting Python, faultlens on PATH is used", () => {
  const plan = planLaunch({ ...base, bundle, onPath: "/usr/local/bin/faultlens" });
  assert.deepEqual(plan, { kind: "command", command: "/usr/local/bin/faultlens", args: ["serve"], why: "faultlens on PATH" });
});

test("nothing to run: the message says which Pythons were looked at and names the interpreter setting", () => {
  const plan = planLaunch({ ...base, bundle, looked: ["python3 3.9", "python (not found)"] });
  assert.equal(plan.kind, "missing");
  if (plan.kind === "missing") {
    assert.equal(plan.setting, "interpreter");
    assert.match(plan.message, /Python 3\.11, 3\.12, 3\.13/);
    assert.match(plan.message, /python3 3\.9, python \(not found\)/);
    assert.match(plan.message, /faultlens\.interpreter/);
  }
});

test("a build without a bundled server asks for faultlens on PATH", () => {
  const plan = planLaunch(base);
  assert.equal(plan.kind === "missing" && plan.setting, "serverPath");
});

test("versions are read from the interpreter's one line", () => {
  assert.deepEqual(parseVersion("3.12\n"), [3, 12]);
  assert.equal(parseVersion("Python 3.12.1"), undefined);
});

test("a bundle fits only the versions it has libraries for, never below 3.11", () => {
  assert.equal(fits(bundle, [3, 12]), true);
  assert.equal(fits(bundle, [3, 14]), false);
  assert.equal(fits({ ...bundle, pythons: ["3.10"] }, [3, 10]), false);
});

test("the bundle's Pythons come from its cpXY folders, in order", () => {
  assert.deepEqual(bundlePythons(["common", "cp313", "cp311", "BUNDLE.json", "cp312"]), ["3.11", "3.12", "3.13"]);
});

test("an extension without bundled/ carries no server", () => {
  assert.equal(bundleAt("/ext", () => false, () => []), undefined);
  const found = bundleAt("/ext", () => true, () => ["common", "cp311"]);
  assert.deepEqual(found?.pythons, ["3.11"]);
});

test("Windows tries the py launcher first", () => {
  assert.deepEqual(pathCandidates("win32")[0], ["py", "-3"]);
  assert.deepEqual(pathCandidates("linux"), [["python3"], ["python"]]);
});
