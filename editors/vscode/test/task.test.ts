import { stub } from "./helpers/register";

import * as assert from "node:assert/strict";
import * as os from "node:os";
import { test } from "node:test";

import type { IngestParams } from "../src/common/server";
import { DEFAULTS } from "../src/common/settings";
import { CommandPty, FaultlensTaskProvider, taskCwd } from "../src/task";

function runPty(command: string, cwd: string, sent: IngestParams[], accept = true) {
  const pty = new CommandPty(command, cwd, "build", async (p) => {
    sent.push(p);
    return accept;
  });
  let written = "";
  pty.onDidWrite((t) => (written += t));
  const closed = new Promise<number>((resolve) => pty.onDidClose((code) => resolve(code)));
  pty.open();
  return { pty, closed, written: () => written };
}

test("a faultlens task shows the output live and sends it with the exit code", async () => {
  const sent: IngestParams[] = [];
  const cwd = os.tmpdir();
  const run = runPty("printf 'first\\nsecond\\n'; echo oops >&2; exit 3", cwd, sent);
  const code = await run.closed;
  assert.equal(code, 3);
  assert.equal(sent.length, 1);
  assert.equal(sent[0].exitCode, 3);
  assert.equal(sent[0].task, "build");
  assert.equal(sent[0].cwd, cwd);
  assert.equal(sent[0].command, "printf 'first\\nsecond\\n'; echo oops >&2; exit 3");
  assert.match(sent[0].output, /first\nsecond\n/);
  assert.match(sent[0].output, /oops/);
  assert.match(run.written(), /first\r\nsecond\r\n/);
  assert.match(run.written(), /output sent to faultlens/);
});

test("without a server the task still runs and says the output was not classified", async () => {
  const sent: IngestParams[] = [];
  const run = runPty("echo hi", os.tmpdir(), sent, false);
  assert.equal(await run.closed, 0);
  assert.match(run.written(), /not running: output not classified/);
});

test("closing the task's terminal stops the command", async () => {
  const sent: IngestParams[] = [];
  const started = Date.now();
  const run = runPty("sleep 30", os.tmpdir(), sent);
  setTimeout(() => run.pty.close(), 200);
  const code = await run.closed;
  assert.notEqual(code, 0);
  assert.ok(Date.now() - started < 10_000);
});

test("a task's cwd is taken from its folder", () => {
  assert.equal(taskCwd({ type: "faultlens", command: "x" }, "/w"), "/w");
  assert.equal(taskCwd({ type: "faultlens", command: "x", cwd: "sub" }, "/w"), "/w/sub");
  assert.equal(taskCwd({ type: "faultlens", command: "x", cwd: "/abs" }, "/w"), "/abs");
});

test("tasks.json entries resolve, and runCommands become provided tasks", async () => {
  stub.folders.splice(0, stub.folders.length, { uri: stub.Uri.file("/w"), name: "w", index: 0 });
  const seen: string[] = [];
  const settings = { ...DEFAULTS, runCommands: { build: ["python", "-m", "compileall", "src dir"] } };
  const provider = new FaultlensTaskProvider(async () => true, (t) => seen.push(t), () => settings);
  const provided = provider.provideTasks() as unknown as InstanceType<typeof stub.Task>[];
  assert.equal(provided.length, 1);
  assert.equal(provided[0].name, "build");
  assert.equal(provided[0].source, "faultlens");
  assert.equal(provided[0].definition.command, "python -m compileall 'src dir'");

  const fromJson = new stub.Task({ type: "faultlens", command: "npm test" }, stub.folders[0], "test", "Workspace", undefined as never, []);
  const resolved = provider.resolveTask(fromJson as never) as unknown as InstanceType<typeof stub.Task>;
  assert.ok(resolved);
  assert.deepEqual(resolved.problemMatchers, []);
  const pty = await resolved.execution.callback(resolved.definition);
  assert.ok(pty instanceof CommandPty);
  assert.deepEqual(seen, ["test"]);

  const bad = new stub.Task({ type: "faultlens" }, stub.folders[0], "bad", "Workspace", undefined as never, []);
  assert.equal(provider.resolveTask(bad as never), undefined);
  stub.folders.splice(0);
});
