// The `faultlens` task type: a pseudoterminal runs the command, shows its output live,
// and sends the output to the server (`faultlens/ingest`), so no problem matcher is needed.
import { type ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import { StringDecoder } from "node:string_decoder";
import * as vscode from "vscode";

import { OutputCapture, commandLine, toTerminalText } from "./capture";
import { TASK_TYPE } from "./common/constants";
import type { IngestParams } from "./common/server";
import type { FaultlensSettings } from "./common/settings";

export interface FaultlensTaskDefinition extends vscode.TaskDefinition {
  type: typeof TASK_TYPE;
  command: string;
  cwd?: string;
  task?: string;
}

/** Where the output goes once the command has ended. */
export type IngestSink = (params: IngestParams) => Promise<boolean>;

/** Remembers the tasks that ran (Retry/Skip/Stop offer them). */
export type TaskSeen = (task: string) => void;

function folderPath(scope: vscode.TaskScope | vscode.WorkspaceFolder | undefined): string | undefined {
  if (scope && typeof scope === "object" && "uri" in scope) {
    return scope.uri.fsPath;
  }
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/** The working directory of a task: `cwd` (relative to the folder) or the folder. */
export function taskCwd(definition: FaultlensTaskDefinition, folder: string | undefined): string {
  const base = folder ?? process.cwd();
  if (!definition.cwd) {
    return base;
  }
  return path.isAbsolute(definition.cwd) ? definition.cwd : path.resolve(base, definition.cwd);
}

/** Runs one command in a pseudoterminal. */
export class CommandPty implements vscode.Pseudoterminal {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly closeEmitter = new vscode.EventEmitter<number>();
  readonly onDidWrite = this.writeEmitter.event;
  readonly onDidClose = this.closeEmitter.event;
  private child: ChildProcess | undefined;
  private readonly capture = new OutputCapture();

  constructor(
    private readonly command: string,
    private readonly cwd: string,
    private readonly taskName: string,
    private readonly sink: IngestSink,
  ) {}

  open(): void {
    this.write(`\x1b[2m> ${this.command}   (in ${this.cwd})\x1b[0m\n`);
    let child: ChildProcess;
    try {
      child = spawn(this.command, {
        cwd: this.cwd,
        shell: true,
        detached: process.platform !== "win32",
        stdio: ["ignore", "pipe", "pipe"],
        env: process.env,
      });
    } catch (err) {
      this.write(`faultlens: cannot start the command: ${String(err)}\n`);
      this.closeEmitter.fire(127);
      return;
    }
    this.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      const decoder = new StringDecoder("utf8");
      stream?.on("data", (data: Buffer) => this.onOutput(decoder.write(data)));
      stream?.on("end", () => this.onOutput(decoder.end()));
    }
    child.on("error", (err) => {
      this.write(`faultlens: ${String(err)}\n`);
    });
    child.on("close", (code, signal) => {
      void this.finish(code ?? (signal ? 128 + 15 : 1));
    });
  }

  private onOutput(text: string): void {
    if (text === "") {
      return;
    }
    this.capture.append(text);
    this.write(text);
  }

  private write(text: string): void {
    this.writeEmitter.fire(toTerminalText(text));
  }

  private async finish(exitCode: number): Promise<void> {
    this.child = undefined;
    const params: IngestParams = {
      output: this.capture.text(),
      command: this.command,
      cwd: this.cwd,
      exitCode,
      task: this.taskName,
    };
    let sent = false;
    try {
      sent = await this.sink(params);
    } catch (err) {
      this.write(`\nfaultlens: could not send the output: ${String(err)}\n`);
    }
    const note = sent ? "output sent to faultlens" : "faultlens is not running: output not classified";
    this.write(`\n\x1b[2m[exit code ${exitCode}; ${note}]\x1b[0m\n`);
    this.closeEmitter.fire(exitCode);
  }

  handleInput(data: string): void {
    if (data === "\x03") {
      this.kill();
    }
  }

  close(): void {
    this.kill();
  }

  private kill(): void {
    const child = this.child;
    if (!child || child.pid === undefined) {
      return;
    }
    try {
      if (process.platform !== "win32") {
        process.kill(-child.pid, "SIGTERM");
      } else {
        child.kill();
      }
    } catch {
      child.kill();
    }
  }
}

/** Provides one task per `faultlens.runCommands` entry and resolves tasks.json entries. */
export class FaultlensTaskProvider implements vscode.TaskProvider {
  constructor(
    private readonly sink: IngestSink,
    private readonly seen: TaskSeen,
    private readonly getSettings: () => FaultlensSettings,
  ) {}

  provideTasks(): vscode.Task[] {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) {
      return [];
    }
    return Object.entries(this.getSettings().runCommands).map(([name, spec]) =>
      this.build({ type: TASK_TYPE, command: commandLine(spec), task: name }, folder, name),
    );
  }

  resolveTask(task: vscode.Task): vscode.Task | undefined {
    const definition = task.definition as FaultlensTaskDefinition;
    if (typeof definition.command !== "string" || definition.command.trim() === "") {
      return undefined;
    }
    return this.build(definition, task.scope ?? vscode.TaskScope.Workspace, task.name);
  }

  private build(
    definition: FaultlensTaskDefinition,
    scope: vscode.WorkspaceFolder | vscode.TaskScope,
    name: string,
  ): vscode.Task {
    const execution = new vscode.CustomExecution(async (resolved) => {
      const def = resolved as FaultlensTaskDefinition;
      const taskName = def.task ?? name;
      this.seen(taskName);
      return new CommandPty(def.command, taskCwd(def, folderPath(scope)), taskName, this.sink);
    });
    const task = new vscode.Task(definition, scope, name, TASK_TYPE, execution, []);
    task.presentationOptions = { reveal: vscode.TaskRevealKind.Always, clear: true };
    return task;
  }
}
