// The palette commands: each asks what it needs, then calls the server.
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";

import { commandLine } from "./capture";
import { ClientCommands, ServerCommands } from "./common/constants";
import { type ServerSession, workspaceRoot } from "./common/server";
import type { FaultlensSettings } from "./common/settings";

/** Tasks seen in this window, most recent first (for Retry/Skip/Stop). */
export class RecentTasks {
  private names: string[] = [];

  constructor(private readonly limit = 20) {}

  add(task: string): void {
    this.names = [task, ...this.names.filter((n) => n !== task)].slice(0, this.limit);
  }

  list(): string[] {
    return [...this.names];
  }
}

/** Task names from a `faultlens/failures` answer, then the recent ones, without repeats. */
export function taskChoices(answer: unknown, recent: string[]): string[] {
  const names: string[] = [];
  const list =
    answer && typeof answer === "object" && Array.isArray((answer as { failures?: unknown }).failures)
      ? (answer as { failures: unknown[] }).failures
      : [];
  for (const item of list) {
    const task = item && typeof item === "object" ? (item as { task?: unknown }).task : undefined;
    if (typeof task === "string") {
      names.push(task);
    }
  }
  return [...new Set([...names, ...recent])];
}

/** Today's session log (UTC date, the server's name for it). */
export function sessionLogPath(root: string, logDir: string, now = new Date()): string {
  const day = now.toISOString().slice(0, 10);
  return path.resolve(root, logDir, "logs", `session-${day}.log`);
}

/** A one-line summary of a faultlens.run answer. */
export function runSummary(answer: unknown): string {
  if (!answer || typeof answer !== "object") {
    return "faultlens: command finished";
  }
  const a = answer as { task?: unknown; error?: unknown; exitCode?: unknown; failures?: unknown };
  if (typeof a.error === "string" && a.error !== "") {
    return `faultlens: ${a.error}`;
  }
  const failures = typeof a.failures === "number" ? a.failures : Array.isArray(a.failures) ? a.failures.length : undefined;
  const parts = [`exit code ${a.exitCode ?? "?"}`];
  if (failures !== undefined) {
    parts.push(`${failures} failure${failures === 1 ? "" : "s"}`);
  }
  return `faultlens: ${typeof a.task === "string" ? `${a.task}: ` : ""}${parts.join(", ")}`;
}

/** A one-line summary of a faultlens.showCI answer. */
export function ciSummary(answer: unknown): string {
  if (!answer || typeof answer !== "object") {
    return "faultlens: CI: no answer";
  }
  const a = answer as { error?: unknown; runs?: unknown };
  if (typeof a.error === "string" && a.error !== "") {
    return `faultlens: CI: ${a.error}`;
  }
  const runs = Array.isArray(a.runs) ? a.runs : [];
  const jobs: string[] = [];
  for (const run of runs) {
    const failed = run && typeof run === "object" ? (run as { failedJobs?: unknown }).failedJobs : undefined;
    for (const job of Array.isArray(failed) ? failed : []) {
      const name = job && typeof job === "object" ? (job as { name?: unknown }).name : undefined;
      if (typeof name === "string") {
        jobs.push(name);
      }
    }
  }
  if (jobs.length === 0) {
    return runs.length === 0 ? "faultlens: CI: no run found" : "faultlens: CI: no failed job";
  }
  return `faultlens: CI: ${jobs.length} failed job${jobs.length === 1 ? "" : "s"} (${jobs.join(", ")})`;
}

export function registerCommands(
  session: ServerSession,
  recent: RecentTasks,
  getSettings: () => FaultlensSettings,
  onShownCI?: () => void,
): vscode.Disposable[] {
  const guard =
    (fn: (...args: unknown[]) => Promise<void>) =>
    async (...args: unknown[]): Promise<void> => {
      try {
        await fn(...args);
      } catch (err) {
        void vscode.window.showErrorMessage(`faultlens: ${err instanceof Error ? err.message : String(err)}`);
      }
    };

  const run = async (): Promise<void> => {
    const named = Object.entries(getSettings().runCommands);
    let command: string | undefined;
    let name: string | undefined;
    if (named.length > 0) {
      const other = "$(terminal) Enter a command…";
      const pick = await vscode.window.showQuickPick(
        [...named.map(([n, spec]) => ({ label: n, description: commandLine(spec) })), { label: other }],
        { placeHolder: "Run through faultlens" },
      );
      if (!pick) {
        return;
      }
      if (pick.label !== other) {
        name = pick.label;
      }
    }
    if (name === undefined) {
      command = await vscode.window.showInputBox({
        prompt: "Command to run through faultlens (not run by a shell)",
        placeHolder: "e.g. python -m unittest",
        ignoreFocusOut: true,
      });
      if (!command || command.trim() === "") {
        return;
      }
    }
    const task = name ?? command?.trim() ?? "run";
    recent.add(task);
    const args = name !== undefined ? { name, task } : { command, cwd: workspaceRoot(), task };
    const answer = await session.execute(ServerCommands.run, [args]);
    void vscode.window.setStatusBarMessage(runSummary(answer), 10_000);
  };

  const showLog = async (): Promise<void> => {
    const root = workspaceRoot();
    const file = root ? sessionLogPath(root, getSettings().logDir) : undefined;
    if (file && fs.existsSync(file)) {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      await vscode.window.showTextDocument(doc, { preview: true });
    } else {
      session.outputChannel.show(true);
    }
  };

  const clear = async (): Promise<void> => {
    await session.execute(ServerCommands.clear, [{}]);
  };

  // With a URL (the CI offer's status-bar item and message): that run, no question asked.
  const showCI = async (given?: unknown): Promise<void> => {
    const url =
      typeof given === "string"
        ? given
        : await vscode.window.showInputBox({
            prompt: "A CI run, job or pull request URL (empty: this branch's latest run on origin)",
            placeHolder: "https://github.com/OWNER/REPO/actions/runs/ID",
            ignoreFocusOut: true,
          });
    if (url === undefined) {
      return;
    }
    const args = url.trim() === "" ? {} : { url: url.trim() };
    const answer = await session.execute(ServerCommands.showCI, [args]);
    onShownCI?.();
    void vscode.window.setStatusBarMessage(ciSummary(answer), 10_000);
  };

  const onTask = (serverCommand: string, verb: string) => async (): Promise<void> => {
    const choices = taskChoices(await session.failures(), recent.list());
    if (choices.length === 0) {
      void vscode.window.showInformationMessage(`faultlens: no task to ${verb}`);
      return;
    }
    const task =
      choices.length === 1 ? choices[0] : await vscode.window.showQuickPick(choices, { placeHolder: `Task to ${verb}` });
    if (task) {
      await session.execute(serverCommand, [{ task }]);
    }
  };

  return [
    vscode.commands.registerCommand(ClientCommands.run, guard(run)),
    vscode.commands.registerCommand(ClientCommands.showLog, guard(showLog)),
    vscode.commands.registerCommand(ClientCommands.clear, guard(clear)),
    vscode.commands.registerCommand(ClientCommands.retryTask, guard(onTask(ServerCommands.retryTask, "retry"))),
    vscode.commands.registerCommand(ClientCommands.skipTask, guard(onTask(ServerCommands.skipTask, "skip"))),
    vscode.commands.registerCommand(ClientCommands.stopTask, guard(onTask(ServerCommands.stopTask, "stop"))),
    vscode.commands.registerCommand(ClientCommands.showCI, guard(showCI)),
  ];
}
