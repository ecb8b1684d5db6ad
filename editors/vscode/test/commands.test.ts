import "./helpers/register";

import * as assert from "node:assert/strict";
import { test } from "node:test";

import { ciSummary, RecentTasks, runSummary, sessionLogPath, taskChoices } from "../src/commands";
import { terminalTaskName, worthSending } from "../src/terminal";

test("task choices list the server's tasks first, then recent ones, once each", () => {
  const recent = new RecentTasks();
  recent.add("lint");
  recent.add("build");
  recent.add("lint");
  assert.deepEqual(recent.list(), ["lint", "build"]);
  const answer = { failures: [{ task: "build" }, { task: "test" }, { task: "build" }] };
  assert.deepEqual(taskChoices(answer, recent.list()), ["build", "test", "lint"]);
  assert.deepEqual(taskChoices(undefined, []), []);
});

test("the session log is the server's logs/session-YYYY-MM-DD.log under logDir", () => {
  const p = sessionLogPath("/w", ".faultlens", new Date("2026-01-20T10:25:00Z"));
  assert.equal(p, "/w/.faultlens/logs/session-2026-01-20.log");
});

test("a run's answer is summarised in one line", () => {
  assert.equal(runSummary({ task: "build", exitCode: 1, failures: 2 }), "faultlens: build: exit code 1, 2 failures");
  assert.equal(runSummary({ task: "x", error: "nope: not found", exitCode: null }), "faultlens: nope: not found");
});

test("terminal commands are filed under a short task name and sent only when they say something", () => {
  assert.equal(terminalTaskName("  npm   test "), "terminal: npm test");
  assert.ok(terminalTaskName("x".repeat(200)).length <= 90);
  assert.equal(worthSending("", 0), false);
  assert.equal(worthSending("", 2), true);
  assert.equal(worthSending("error\n", 0), true);
});

test("ciSummary names the failed jobs, or why there are none", () => {
  const answer = { runs: [{ failedJobs: [{ name: "typecheck" }, { name: "lint" }] }] };
  assert.equal(ciSummary(answer), "faultlens: CI: 2 failed jobs (typecheck, lint)");
  assert.equal(ciSummary({ runs: [{ failedJobs: [] }] }), "faultlens: CI: no failed job");
  assert.equal(ciSummary({ runs: [], error: "GitHub refused the token (401 at x)" }), "faultlens: CI: GitHub refused the token (401 at x)");
  assert.equal(ciSummary(undefined), "faultlens: CI: no answer");
});
