import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";

import { DEFAULTS, readSettings, serverSettings } from "../src/common/settings";

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
const properties: Record<string, { default: unknown }> = manifest.contributes.configuration.properties;

test("every contributed setting has a typed default equal to package.json's", () => {
  const keys = Object.keys(properties).map((k) => k.replace(/^faultlens\./, ""));
  assert.deepEqual(keys.sort(), Object.keys(DEFAULTS).sort());
  for (const [key, spec] of Object.entries(properties)) {
    const name = key.replace(/^faultlens\./, "") as keyof typeof DEFAULTS;
    assert.deepEqual(DEFAULTS[name], spec.default, key);
  }
});

test("settings the user did not set keep their defaults", () => {
  const { settings, problems } = readSettings(() => undefined);
  assert.deepEqual(settings, DEFAULTS);
  assert.deepEqual(problems, []);
  assert.equal(settings.autoRecover, false);
  assert.equal(settings.serverPath, ""); // automatic: the bundled server, else faultlens on PATH
  assert.deepEqual(settings.interpreter, []);
});

test("an invalid value falls back to the default and is reported, valid ones are kept", () => {
  const values: Record<string, unknown> = {
    serverPath: "/opt/faultlens/bin/faultlens",
    maxTaskRetries: 99,
    watchGlobs: "not-a-list",
    autoRecover: true,
    runCommands: { build: "make", test: ["pytest", "-q"] },
  };
  const { settings, problems } = readSettings((key) => values[key]);
  assert.equal(settings.serverPath, "/opt/faultlens/bin/faultlens");
  assert.equal(settings.maxTaskRetries, 2);
  assert.deepEqual(settings.watchGlobs, DEFAULTS.watchGlobs);
  assert.equal(settings.autoRecover, true);
  assert.deepEqual(settings.runCommands, { build: "make", test: ["pytest", "-q"] });
  assert.equal(problems.length, 2);
  assert.match(problems.join("\n"), /faultlens\.maxTaskRetries/);
  assert.match(problems.join("\n"), /faultlens\.watchGlobs/);
});

test("empty commands in runCommands are rejected", () => {
  const { settings, problems } = readSettings((key) => (key === "runCommands" ? { build: [] } : undefined));
  assert.deepEqual(settings.runCommands, {});
  assert.equal(problems.length, 1);
});

test("the server gets its own settings, not the client-only ones", () => {
  const sent = serverSettings({ ...DEFAULTS, logDir: "state" });
  assert.equal(sent.logDir, "state");
  assert.ok(!("serverPath" in sent));
  assert.ok(!("forwardTerminal" in sent));
  assert.deepEqual(Object.keys(sent).sort(), [
    "autoRecover",
    "keepDiagnosticsOnStop",
    "logDir",
    "maxTaskRetries",
    "runCommands",
    "taskInSource",
    "verifyAfterRecipe",
    "watchGlobs",
  ]);
});
