// Starting, stopping and talking to the faultlens language server.
import * as fs from "node:fs";
import * as os from "node:os";
import * as vscode from "vscode";
import {
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  State,
  TransportKind,
} from "vscode-languageclient/node";

import { CONFIG_SECTION, DISPLAY_NAME, INSTALL_COMMAND, Messages, SERVE_ARGS } from "./constants";
import { resolveExecutable } from "./executable";
import { bundleAt, type LaunchPlan, planLaunch } from "./launch";
import { findInterpreter } from "./python";
import { type FaultlensSettings, serverSettings } from "./settings";

/** `faultlens/ingest` params (server/protocol.py IngestArgs). */
export interface IngestParams {
  output: string;
  command?: string;
  cwd?: string;
  exitCode?: number;
  task?: string;
}

export type SessionState = "stopped" | "starting" | "running" | "missing" | "failed";

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first workspace folder's path, if any. */
export function workspaceRoot(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/** One language client at a time; restarted when the executable changes. */
export class ServerSession implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private readonly stateEmitter = new vscode.EventEmitter<SessionState>();
  readonly onDidChangeState = this.stateEmitter.event;
  private readonly ciEmitter = new vscode.EventEmitter<unknown>();
  /** `faultlens/ciFailed`: the branch's last CI run failed (its params). */
  readonly onCIFailed = this.ciEmitter.event;
  private currentState: SessionState = "stopped";

  constructor(
    private readonly output: vscode.LogOutputChannel,
    private readonly getSettings: () => FaultlensSettings,
    /** Where the extension is installed (its bundled server, when it carries one). */
    private readonly extensionPath?: string,
  ) {}

  get state(): SessionState {
    return this.currentState;
  }

  get outputChannel(): vscode.LogOutputChannel {
    return this.output;
  }

  private setState(state: SessionState): void {
    this.currentState = state;
    this.stateEmitter.fire(state);
  }

  /** How to start the server: the setting, the bundled server, or PATH (src/common/launch.ts). */
  private async plan(settings: FaultlensSettings, root: string | undefined): Promise<LaunchPlan> {
    const lookup = { workspaceFolder: root, home: os.homedir(), pathEnv: process.env.PATH, isExecutable };
    const bundle =
      this.extensionPath === undefined
        ? undefined
        : bundleAt(this.extensionPath, (f) => fs.existsSync(f), (d) => fs.readdirSync(d));
    const found =
      bundle !== undefined && settings.serverPath.trim() === ""
        ? await findInterpreter(bundle, settings.interpreter, root ? vscode.Uri.file(root) : undefined)
        : { looked: [] as string[] };
    return planLaunch({
      serverPath: settings.serverPath,
      serverPathResolved: settings.serverPath.trim() === "" ? undefined : resolveExecutable(settings.serverPath, lookup),
      bundle,
      interpreter: found.interpreter,
      looked: found.looked,
      onPath: resolveExecutable("faultlens", lookup),
      serveArgs: SERVE_ARGS,
      installCommand: INSTALL_COMMAND,
    });
  }

  /** Start the server; when none can be started, a message naming what is missing. */
  async start(): Promise<void> {
    const settings = this.getSettings();
    const root = workspaceRoot();
    const plan = await this.plan(settings, root);
    if (plan.kind === "missing") {
      this.output.error(plan.message);
      this.setState("missing");
      void this.offerInstall(plan.message, plan.setting);
      return;
    }
    const { command, args } = plan;
    this.output.info(`server: ${plan.why}`);
    const serverOptions: ServerOptions = {
      command,
      args,
      transport: TransportKind.stdio,
      options: root ? { cwd: root } : {},
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ scheme: "file" }],
      synchronize: { configurationSection: CONFIG_SECTION },
      initializationOptions: serverSettings(settings),
      outputChannel: this.output,
    };
    this.client = new LanguageClient(CONFIG_SECTION, DISPLAY_NAME, serverOptions, clientOptions);
    this.client.onNotification(Messages.ciFailed, (params: unknown) => this.ciEmitter.fire(params));
    this.client.onDidChangeState((e) => {
      if (e.newState === State.Running) {
        this.setState("running");
      } else if (e.newState === State.Stopped && this.currentState === "running") {
        this.setState("stopped");
      }
    });
    this.setState("starting");
    this.output.info(`starting ${command} ${args.join(" ")}`);
    try {
      await this.client.start();
    } catch (err) {
      this.setState("failed");
      const message = `faultlens: the language server did not start: ${String(err)}`;
      this.output.error(message);
      void vscode.window.showErrorMessage(message, "Show Log").then((pick) => {
        if (pick) {
          this.output.show();
        }
      });
    }
  }

  private async offerInstall(message: string, setting: "interpreter" | "serverPath"): Promise<void> {
    const copy = "Copy Install Command";
    const open = "Open Settings";
    const buttons = setting === "serverPath" ? [copy, open] : [open];
    const pick = await vscode.window.showErrorMessage(message, ...buttons);
    if (pick === copy) {
      await vscode.env.clipboard.writeText(INSTALL_COMMAND);
    } else if (pick === open) {
      await vscode.commands.executeCommand("workbench.action.openSettings", `${CONFIG_SECTION}.${setting}`);
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.stop();
      } catch (err) {
        this.output.warn(`stopping the server: ${String(err)}`);
      }
    }
    this.setState("stopped");
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  private running(): LanguageClient | undefined {
    return this.client && this.client.state === State.Running ? this.client : undefined;
  }

  /** Send captured output; false when the server is not running. */
  async ingest(params: IngestParams): Promise<boolean> {
    const client = this.running();
    if (!client) {
      return false;
    }
    await client.sendNotification(Messages.ingest, params);
    return true;
  }

  /** `workspace/executeCommand` on the server. */
  async execute(command: string, args: unknown[]): Promise<unknown> {
    const client = this.running();
    if (!client) {
      throw new Error(`${DISPLAY_NAME} is not running (${this.currentState})`);
    }
    return client.sendRequest("workspace/executeCommand", { command, arguments: args });
  }

  /** `faultlens/failures`; undefined when the server is not running or fails. */
  async failures(params: { task?: string; uri?: string } = {}): Promise<unknown> {
    const client = this.running();
    if (!client) {
      return undefined;
    }
    try {
      return await client.sendRequest(Messages.failures, params);
    } catch (err) {
      this.output.warn(`${Messages.failures}: ${String(err)}`);
      return undefined;
    }
  }

  dispose(): void {
    void this.stop();
    this.stateEmitter.dispose();
    this.ciEmitter.dispose();
  }
}
