// The extension's settings: one typed model mirroring package.json and the server's
// settings (server/settings.py).  `readSettings` is pure: it takes a getter, keeps every
// valid value, falls back to the default for each invalid one and says why.
import { CONFIG_SECTION } from "./constants";

export type CommandSpec = string | string[];

export interface FaultlensSettings {
  /** The faultlens executable (a name on PATH, or a path); "" for automatic: the
   * bundled server, else `faultlens` on PATH. Client only. */
  serverPath: string;
  /** The Python to run the bundled server with (executable, then arguments); [] to find
   * one. Client only. */
  interpreter: string[];
  /** Named commands for Faultlens: Run Command… and the provided tasks. */
  runCommands: Record<string, CommandSpec>;
  /** Files classified whenever they change (relative to the workspace root). */
  watchGlobs: string[];
  /** Apply the one automatic recipe attempt without asking. */
  autoRecover: boolean;
  /** Re-run the failed command (or re-check the file) after a recipe. */
  verifyAfterRecipe: boolean;
  /** The state folder: ledger, events.jsonl and logs/. */
  logDir: string;
  /** Retries of a task before a human must decide. */
  maxTaskRetries: number;
  /** Name the task in each diagnostic's source (`faultlens: <task>`), for the Problems view. */
  taskInSource: boolean;
  /** A stopped or killed watch task keeps its last cycle's diagnostics. */
  keepDiagnosticsOnStop: boolean;
  /** Forward the integrated terminal's command output (shell integration). Client only. */
  forwardTerminal: boolean;
}

export const DEFAULTS: Readonly<FaultlensSettings> = Object.freeze({
  serverPath: "",
  interpreter: [],
  runCommands: {},
  watchGlobs: [".faultlens/inbox/*.log", "**/junit*.xml"],
  autoRecover: false,
  verifyAfterRecipe: true,
  logDir: ".faultlens",
  maxTaskRetries: 2,
  taskInSource: false,
  keepDiagnosticsOnStop: false,
  forwardTerminal: true,
});

type Check = (value: unknown) => boolean;

const isString: Check = (v) => typeof v === "string";
const isNonEmptyString: Check = (v) => typeof v === "string" && v.trim() !== "";
const isBool: Check = (v) => typeof v === "boolean";
const isStringList: Check = (v) => Array.isArray(v) && v.every((x) => typeof x === "string");
const isRetries: Check = (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 10;
const isCommandMap: Check = (v) =>
  typeof v === "object" &&
  v !== null &&
  !Array.isArray(v) &&
  Object.values(v).every((c) => isNonEmptyString(c) || (isStringList(c) && (c as string[]).length > 0));

const CHECKS: { [K in keyof FaultlensSettings]: Check } = {
  serverPath: isString,
  interpreter: isStringList,
  runCommands: isCommandMap,
  watchGlobs: isStringList,
  autoRecover: isBool,
  verifyAfterRecipe: isBool,
  logDir: isString,
  maxTaskRetries: isRetries,
  taskInSource: isBool,
  keepDiagnosticsOnStop: isBool,
  forwardTerminal: isBool,
};

export interface ReadResult {
  settings: FaultlensSettings;
  /** One line per invalid value (shown to the user). */
  problems: string[];
}

/** Settings from `get(key)` (undefined: the default). */
export function readSettings(get: (key: string) => unknown): ReadResult {
  const settings = {
    ...DEFAULTS,
    interpreter: [...DEFAULTS.interpreter],
    runCommands: { ...DEFAULTS.runCommands },
    watchGlobs: [...DEFAULTS.watchGlobs],
  };
  const problems: string[] = [];
  for (const key of Object.keys(CHECKS) as (keyof FaultlensSettings)[]) {
    const value = get(key);
    if (value === undefined || value === null) {
      continue;
    }
    if (!CHECKS[key](value)) {
      problems.push(`${CONFIG_SECTION}.${key}: invalid value ${JSON.stringify(value)}; using the default`);
      continue;
    }
    (settings as Record<string, unknown>)[key] = value;
  }
  if (settings.logDir.trim() === "") {
    settings.logDir = DEFAULTS.logDir;
  }
  return { settings, problems };
}

/** What the server reads (initializationOptions): every setting but the client-only ones. */
export function serverSettings(s: FaultlensSettings): Record<string, unknown> {
  return {
    runCommands: s.runCommands,
    watchGlobs: s.watchGlobs,
    autoRecover: s.autoRecover,
    verifyAfterRecipe: s.verifyAfterRecipe,
    logDir: s.logDir,
    maxTaskRetries: s.maxTaskRetries,
    taskInSource: s.taskInSource,
    keepDiagnosticsOnStop: s.keepDiagnosticsOnStop,
  };
}

/** Settings whose change needs the server restarted (the others reach it live). */
export const RESTART_KEYS: readonly (keyof FaultlensSettings)[] = ["serverPath", "interpreter"];
