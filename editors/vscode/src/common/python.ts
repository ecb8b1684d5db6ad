// Finding a Python the bundled server can run on, the standard way: the setting
// `faultlens.interpreter`, else the Python extension's active environment (its
// environments API), else `python3` / `python` (`py -3` on Windows) on PATH.
import { execFile } from "node:child_process";
import * as vscode from "vscode";

import { type Bundle, fits, type Interpreter, parseVersion, pathCandidates, versionText } from "./launch";

const VERSION_SCRIPT = 'import sys; print("%d.%d" % sys.version_info[:2])';

/** `argv -c VERSION_SCRIPT`, or undefined when it does not run within 10 s. */
function versionOf(argv: string[]): Promise<[number, number] | undefined> {
  return new Promise((resolve) => {
    const [command, ...pre] = argv;
    execFile(command, [...pre, "-c", VERSION_SCRIPT], { timeout: 10_000, windowsHide: true }, (err, stdout) => {
      resolve(err ? undefined : parseVersion(String(stdout)));
    });
  });
}

/** The parts of the Python extension's API used here (ms-python.python, `environments`). */
interface PythonEnvironments {
  getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } | undefined;
  resolveEnvironment(
    env: { path: string } | string,
  ): Promise<{ executable: { uri?: vscode.Uri }; version?: { major?: number; minor?: number } } | undefined>;
}

async function fromPythonExtension(resource: vscode.Uri | undefined): Promise<string | undefined> {
  const ext = vscode.extensions.getExtension<{ environments?: PythonEnvironments }>("ms-python.python");
  if (ext === undefined) {
    return undefined;
  }
  try {
    const api = ext.isActive ? ext.exports : await ext.activate();
    const envs = api?.environments;
    const active = envs?.getActiveEnvironmentPath(resource);
    if (envs === undefined || active === undefined) {
      return undefined;
    }
    const resolved = await envs.resolveEnvironment(active);
    return resolved?.executable.uri?.fsPath;
  } catch {
    return undefined;
  }
}

export interface Found {
  interpreter?: Interpreter;
  /** Every Python looked at, with its version or why it was passed over. */
  looked: string[];
}

/** The first interpreter the bundle fits, trying the setting, the Python extension, PATH. */
export async function findInterpreter(
  bundle: Bundle,
  setting: string[],
  resource: vscode.Uri | undefined,
): Promise<Found> {
  const tries: { argv: string[]; source: string }[] = [];
  if (setting.length > 0) {
    tries.push({ argv: setting, source: "faultlens.interpreter" });
  } else {
    const fromExt = await fromPythonExtension(resource);
    if (fromExt !== undefined) {
      tries.push({ argv: [fromExt], source: "the Python extension's environment" });
    }
    for (const argv of pathCandidates(process.platform)) {
      tries.push({ argv, source: "PATH" });
    }
  }
  const looked: string[] = [];
  for (const t of tries) {
    const version = await versionOf(t.argv);
    const name = t.argv.join(" ");
    if (version === undefined) {
      looked.push(`${name} (not found)`);
      continue;
    }
    if (!fits(bundle, version)) {
      looked.push(`${name} ${versionText(version)}`);
      continue;
    }
    return { interpreter: { argv: t.argv, version, source: t.source }, looked };
  }
  return { looked };
}
