import "./helpers/register";

import * as assert from "node:assert/strict";
import { test } from "node:test";

import { CIOfferView, ciOffer, SHOW_CI } from "../src/ci";
import { registerCommands, RecentTasks } from "../src/commands";
import type { ServerSession } from "../src/common/server";
import { answers, recorded } from "./helpers/vscode-stub";

// What server/ci_offer.py sends (tests/e2e/test_ci_offer.py checks the server's side).
const FAILED = {
  service: "github",
  project: "acme/shop",
  branch: "feature/auth",
  runs: [{ name: "CI", url: "https://github.com/acme/shop/actions/runs/77", sha: "abc", conclusion: "failure" }],
};

test("a failed last run is offered with its run and branch; a notification without one is not", () => {
  const offer = ciOffer(FAILED);
  assert.ok(offer);
  assert.equal(offer.url, "https://github.com/acme/shop/actions/runs/77");
  assert.equal(offer.message, "faultlens: the last CI run of feature/auth failed (CI).");
  assert.equal(offer.text, "$(error) CI failed");
  assert.equal(ciOffer({ runs: [] }), undefined);
  assert.equal(ciOffer({ runs: [{ url: "javascript:alert(1)" }] }), undefined);
  assert.equal(ciOffer(undefined), undefined);
});

test("the offer shows a status-bar item and a message that run Show CI Failures on the run", async () => {
  const view = new CIOfferView();
  const item = recorded.statusItems[recorded.statusItems.length - 1];
  assert.equal(item.visible, false); // nothing until the server says so
  answers.info = SHOW_CI;
  await view.offer(FAILED);
  answers.info = undefined;
  assert.equal(item.visible, true);
  assert.equal(item.text, "$(error) CI failed");
  assert.deepEqual(item.command.arguments, ["https://github.com/acme/shop/actions/runs/77"]);
  assert.equal(item.command.command, "faultlens.showCIFailures");
  const info = recorded.infos[recorded.infos.length - 1];
  assert.deepEqual(info.items, [SHOW_CI]);
  assert.deepEqual(recorded.executed[recorded.executed.length - 1], {
    command: "faultlens.showCIFailures",
    args: ["https://github.com/acme/shop/actions/runs/77"],
  });
  view.taken();
  assert.equal(item.visible, false);
  view.dispose();
});

test("Show CI Failures with the offer's URL asks nothing and shows that run, then takes the offer", async () => {
  const calls: { command: string; args: unknown[] }[] = [];
  const session = {
    execute: async (command: string, args: unknown[]) => {
      calls.push({ command, args });
      return { runs: [{ failedJobs: [{ name: "typecheck" }] }] };
    },
  } as unknown as ServerSession;
  let taken = 0;
  const disposables = registerCommands(session, new RecentTasks(), () => ({}) as never, () => taken++);
  const showCI = recorded.commands.get("faultlens.showCIFailures");
  assert.ok(showCI);
  await showCI("https://github.com/acme/shop/actions/runs/77");
  assert.deepEqual(calls, [{ command: "faultlens.showCI", args: [{ url: "https://github.com/acme/shop/actions/runs/77" }] }]);
  assert.equal(taken, 1);
  for (const d of disposables) {
    d.dispose();
  }
});
