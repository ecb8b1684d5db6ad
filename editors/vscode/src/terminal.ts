// Best-effort forwarding of commands run in the integrated terminal (shell integration).
// VS Code may attach the output stream after a quick command has already printed, so
// this can miss output; tasks and Faultlens: Run Command… are the reliable routes.
import * as vscode from "vscode";

import { OutputCapture } from "./capture";
import type { IngestSink, TaskSeen } from "./task";

/** The task name a terminal command's failures are filed under. */
export function terminalTaskName(commandLine: string): string {
  const line = commandLine.trim().replace(/\s+/g, " ");
  return `terminal: ${line.length > 80 ? `${line.slice(0, 79)}…` : line}`;
}

/** Whether a finished terminal command is worth sending. */
export function worthSending(output: string, exitCode: number | undefined): boolean {
  return output.trim() !== "" || (exitCode !== undefined && exitCode !== 0);
}

export class TerminalForwarder implements vscode.Disposable {
  private readonly reading = new Map<vscode.TerminalShellExecution, Promise<string>>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly sink: IngestSink,
    private readonly seen: TaskSeen,
    private readonly enabled: () => boolean,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      vscode.window.onDidStartTerminalShellExecution((e) => this.onStart(e)),
      vscode.window.onDidEndTerminalShellExecution((e) => void this.onEnd(e)),
    );
  }

  private onStart(e: vscode.TerminalShellExecutionStartEvent): void {
    if (!this.enabled()) {
      return;
    }
    this.reading.set(e.execution, this.collect(e.execution));
  }

  private async collect(execution: vscode.TerminalShellExecution): Promise<string> {
    const capture = new OutputCapture();
    try {
      for await (const data of execution.read()) {
        capture.append(data);
      }
    } catch (err) {
      this.log.debug(`terminal read: ${String(err)}`);
    }
    return capture.text();
  }

  private async onEnd(e: vscode.TerminalShellExecutionEndEvent): Promise<void> {
    const pending = this.reading.get(e.execution);
    this.reading.delete(e.execution);
    if (!pending) {
      return;
    }
    const output = await pending;
    const command = e.execution.commandLine.value;
    if (command.trim() === "" || !worthSending(output, e.exitCode)) {
      return;
    }
    const task = terminalTaskName(command);
    this.seen(task);
    try {
      await this.sink({
        output,
        command,
        cwd: e.execution.cwd?.fsPath,
        exitCode: e.exitCode,
        task,
      });
    } catch (err) {
      this.log.warn(`forwarding "${command}": ${String(err)}`);
    }
  }

  dispose(): void {
    for (const d of this.disposables) {
      d.dispose();
    }
    this.reading.clear();
  }
}
