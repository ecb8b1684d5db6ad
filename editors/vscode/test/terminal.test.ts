import { stub } from "./helpers/register";

import * as assert from "node:assert/strict";
import { test } from "node:test";

import type { IngestParams } from "../src/common/server";
import { TerminalForwarder } from "../src/terminal";

function execution(command: string, chunks: string[]) {
  return {
    commandLine: { value: command },
    cwd: stub.Uri.file("/w"),
    read: async function* () {
      for (const c of chunks) {
        await new Promise((r) => setTimeout(r, 5));
        yield c;
      }
    },
  };
}

async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 100));
}

function forwarder(enabled: boolean) {
  const sent: IngestParams[] = [];
  const seen: string[] = [];
  const log = stub.window.createOutputChannel("test");
  const fwd = new TerminalForwarder(
    async (p) => {
      sent.push(p);
      return true;
    },
    (t) => seen.push(t),
    () => enabled,
    log,
  );
  return { fwd, sent, seen };
}

test("a terminal command's output and exit code are sent when it ends", async () => {
  const { fwd, sent, seen } = forwarder(true);
  const ex = execution("python -m unittest", ["Traceback (most recent call last):\n", "NameError: name 'x' is not defined\n"]);
  stub.terminalEvents.start.fire({ execution: ex });
  await settle();
  stub.terminalEvents.end.fire({ execution: ex, exitCode: 1 });
  await settle();
  fwd.dispose();
  assert.deepEqual(sent, [
    {
      output: "Traceback (most recent call last):\nNameError: name 'x' is not defined\n",
      command: "python -m unittest",
      cwd: "/w",
      exitCode: 1,
      task: "terminal: python -m unittest",
    },
  ]);
  assert.deepEqual(seen, ["terminal: python -m unittest"]);
});

test("nothing is sent when forwarding is off, or for a quiet command that succeeded", async () => {
  const off = forwarder(false);
  const ex = execution("make", ["error\n"]);
  stub.terminalEvents.start.fire({ execution: ex });
  stub.terminalEvents.end.fire({ execution: ex, exitCode: 2 });
  await settle();
  off.fwd.dispose();
  assert.deepEqual(off.sent, []);

  const on = forwarder(true);
  const quiet = execution("true", []);
  stub.terminalEvents.start.fire({ execution: quiet });
  stub.terminalEvents.end.fire({ execution: quiet, exitCode: 0 });
  await settle();
  on.fwd.dispose();
  assert.deepEqual(on.sent, []);
});
