import { stub } from "./helpers/register";

import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";

import { ClientCommands, TASK_TYPE } from "../src/common/constants";
import * as extension from "../src/extension";

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));

test("the manifest activates at start-up and declares every palette command and the task type", () => {
  assert.deepEqual(manifest.activationEvents, ["onStartupFinished"]);
  assert.equal(manifest.engines.vscode, "^1.100.0");
  assert.equal(manifest.devDependencies["@types/vscode"], "1.100.0");
  assert.equal(manifest.main, "./dist/extension.js");
  const declared = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
  assert.deepEqual(declared, Object.values(ClientCommands).sort());
  for (const c of manifest.contributes.commands) {
    assert.equal(c.category, "Faultlens");
  }
  assert.equal(manifest.contributes.taskDefinitions[0].type, TASK_TYPE);
  assert.match(manifest.scripts["vscode:prepublish"], /esbuild|bundle/);
});

test("activation with no faultlens executable explains how to install it and still wires everything", async () => {
  stub.config.serverPath = "/nonexistent/faultlens-missing";
  const context = { subscriptions: [] as { dispose(): void }[] };
  await extension.activate(context as never);
  const error = stub.recorded.errors.find((e) => /was not found/.test(e.message));
  assert.ok(error, "an error message is shown");
  assert.match(error.message, /pip install faultlens/);
  assert.match(error.message, /\/nonexistent\/faultlens-missing/);
  assert.deepEqual(error.items, ["Copy Install Command", "Open Settings"]);
  for (const id of Object.values(ClientCommands)) {
    assert.ok(stub.recorded.commands.has(id), id);
  }
  assert.ok(stub.recorded.taskProviders.has(TASK_TYPE));
  const status = stub.recorded.statusItems[0];
  assert.match(status.text, /circle-slash/);
  await extension.deactivate();
  for (const d of context.subscriptions) {
    d.dispose();
  }
  delete stub.config.serverPath;
});

test("activation with a bundled server but no fitting Python names faultlens.interpreter", async () => {
  const ext = fs.mkdtempSync(path.join(os.tmpdir(), "faultlens-ext-"));
  fs.mkdirSync(path.join(ext, "bundled", "tool"), { recursive: true });
  fs.writeFileSync(path.join(ext, "bundled", "tool", "launch.py"), "");
  fs.mkdirSync(path.join(ext, "bundled", "libs", "common"), { recursive: true });
  fs.mkdirSync(path.join(ext, "bundled", "libs", "cp39")); // no machine has a fitting 3.9 bundle
  stub.config.interpreter = [path.join(ext, "no-python-here")];
  const context = { subscriptions: [] as { dispose(): void }[], extensionPath: ext };
  await extension.activate(context as never);
  const error = stub.recorded.errors.find((e) => /needs Python/.test(e.message));
  assert.ok(error, "an error message is shown");
  assert.match(error.message, /no-python-here \(not found\)/);
  assert.match(error.message, /faultlens\.interpreter/);
  assert.deepEqual(error.items, ["Open Settings"]);
  await extension.deactivate();
  for (const d of context.subscriptions) {
    d.dispose();
  }
  delete stub.config.interpreter;
  fs.rmSync(ext, { recursive: true, force: true });
});
