// Every id shared with the faultlens language server or with package.json, in one place.
// The server side lives in server/protocol.py; keep the two in step.

/** The configuration section (package.json `contributes.configuration`). */
export const CONFIG_SECTION = "faultlens";

/** The task type (package.json `contributes.taskDefinitions`). */
export const TASK_TYPE = "faultlens";

/** Shown in the output channel, the status bar and messages. */
export const DISPLAY_NAME = "faultlens";

/** What a user runs when the executable is missing. */
export const INSTALL_COMMAND = "pip install faultlens";

/** The server's subcommand; vscode-languageclient's stdio transport appends `--stdio`. */
export const SERVE_ARGS: readonly string[] = ["serve"];

/** Diagnostics the server publishes carry this `source`; `code` is the failure_type. */
export const DIAGNOSTIC_SOURCE = "faultlens";

/** Custom LSP messages. */
export const Messages = {
  /** client -> server notification: output captured by a task or a terminal. */
  ingest: "faultlens/ingest",
  /** client -> server request: the failures the server currently knows. */
  failures: "faultlens/failures",
  /** server -> client notification: the branch's last CI run failed. */
  ciFailed: "faultlens/ciFailed",
} as const;

/** Commands the server runs (`workspace/executeCommand`). */
export const ServerCommands = {
  run: "faultlens.run",
  applyRecipe: "faultlens.applyRecipe",
  retryTask: "faultlens.retryTask",
  skipTask: "faultlens.skipTask",
  stopTask: "faultlens.stopTask",
  clear: "faultlens.clear",
  showCI: "faultlens.showCI",
} as const;

/**
 * Palette commands of the extension (package.json `contributes.commands`).  They have
 * their own ids: vscode-languageclient registers the server's ids itself.
 */
export const ClientCommands = {
  run: "faultlens.runCommand",
  showLog: "faultlens.showLog",
  clear: "faultlens.clearFailures",
  retryTask: "faultlens.retryTaskCommand",
  skipTask: "faultlens.skipTaskCommand",
  stopTask: "faultlens.stopTaskCommand",
  showCI: "faultlens.showCIFailures",
} as const;

/** The categories of the failure taxonomy, in the contract's order. */
export const FAILURE_TYPES: readonly string[] = [
  "compile",
  "test",
  "branch_divergence",
  "trust_gate",
  "mcp_startup",
  "plugin_startup",
  "infra",
  "prompt_delivery",
];
