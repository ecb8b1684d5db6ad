import * as assert from "node:assert/strict";
import { test } from "node:test";

import { OutputCapture, commandLine, shellQuote, toTerminalText } from "../src/capture";

test("terminal text turns bare LF into CRLF and leaves CRLF alone", () => {
  assert.equal(toTerminalText("a\nb\r\nc"), "a\r\nb\r\nc");
});

test("output under the limit is kept whole", () => {
  const c = new OutputCapture(1000);
  c.append("line 1\n");
  c.append("line 2\n");
  assert.equal(c.text(), "line 1\nline 2\n");
  assert.equal(c.truncated, false);
});

test("output over the limit keeps its head and its tail, with a marker between", () => {
  const c = new OutputCapture(400);
  c.append("START error at a.py:1\n");
  for (let i = 0; i < 200; i++) {
    c.append(`filler line ${i}\n`);
  }
  c.append("END error at b.py:2\n");
  const text = c.text();
  assert.equal(c.truncated, true);
  assert.ok(text.startsWith("START error at a.py:1\n"));
  assert.ok(text.endsWith("END error at b.py:2\n"));
  assert.match(text, /\[faultlens: \d+ characters of output left out\]/);
  assert.ok(text.length < 520);
});

test("argv entries are shown quoted for a shell", () => {
  assert.equal(shellQuote("pytest"), "pytest");
  assert.equal(shellQuote("it's here"), `'it'\\''s here'`);
  assert.equal(commandLine(["pytest", "-k", "a b"]), "pytest -k 'a b'");
  assert.equal(commandLine("make all"), "make all");
});
