// How the server is started: pure, so every case is tested without VS Code.
//
// 1. `faultlens.serverPath` set: that executable (as before).
// 2. The extension carries its server (bundled/, a platform .vsix) and a Python 3.11+
//    with libraries in the bundle was found: `<python> -I bundled/tool/launch.py serve`.
// 3. `faultlens` on PATH.
// 4. Nothing: a message saying what is missing, with the setting that fixes it.
import * as path from "node:path";

import { missingExecutableMessage } from "./executable";

export const MINIMUM_PYTHON: readonly [number, number] = [3, 11];

/** A Python found on the machine: how to run it, and its version. */
export interface Interpreter {
  /** The executable, then any arguments before the script (`py -3`). */
  argv: string[];
  version: [number, number];
  /** Where it was found: the setting, the Python extension, PATH. */
  source: string;
}

export interface Bundle {
  /** bundled/tool/launch.py inside the installed extension. */
  launcher: string;
  /** The CPython versions the bundle has compiled libraries for ("3.11", ...). */
  pythons: string[];
}

export type LaunchPlan =
  | { kind: "command"; command: string; args: string[]; why: string }
  | { kind: "missing"; message: string; setting: "interpreter" | "serverPath" };

/** "3.12" from the output of `python -c 'print("%d.%d" % sys.version_info[:2])'`. */
export function parseVersion(output: string): [number, number] | undefined {
  const m = /^(\d+)\.(\d+)\s*$/.exec(output.trim());
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

export function versionText(v: readonly [number, number]): string {
  return `${v[0]}.${v[1]}`;
}

/** Whether the bundle can run on this interpreter. */
export function fits(bundle: Bundle, version: readonly [number, number]): boolean {
  const [major, minor] = version;
  const old = major < MINIMUM_PYTHON[0] || (major === MINIMUM_PYTHON[0] && minor < MINIMUM_PYTHON[1]);
  return !old && bundle.pythons.includes(versionText(version));
}

/** The bundle's CPython versions, from the folder names of bundled/libs (`cp311`, ...). */
export function bundlePythons(libDirs: string[]): string[] {
  return libDirs
    .map((d) => /^cp(\d)(\d+)$/.exec(d))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `${m[1]}.${m[2]}`)
    .sort((a, b) => Number(a.split(".")[1]) - Number(b.split(".")[1]));
}

/** The Pythons to try on PATH, best first. */
export function pathCandidates(platform: NodeJS.Platform): string[][] {
  return platform === "win32" ? [["py", "-3"], ["python3"], ["python"]] : [["python3"], ["python"]];
}

export interface PlanInput {
  /** `faultlens.serverPath` ("" for automatic) and what it resolved to. */
  serverPath: string;
  serverPathResolved?: string;
  bundle?: Bundle;
  /** The interpreter chosen for the bundle (one that `fits`), if any. */
  interpreter?: Interpreter;
  /** The Pythons looked at, for the message when none fits ("python3 3.9", ...). */
  looked: string[];
  /** `faultlens` found on PATH, if it is there. */
  onPath?: string;
  serveArgs: readonly string[];
  installCommand: string;
}

export function planLaunch(input: PlanInput): LaunchPlan {
  const serve = [...input.serveArgs];
  if (input.serverPath.trim() !== "") {
    if (input.serverPathResolved === undefined) {
      return {
        kind: "missing",
        message: missingExecutableMessage(input.serverPath, input.installCommand),
        setting: "serverPath",
      };
    }
    return { kind: "command", command: input.serverPathResolved, args: serve, why: "faultlens.serverPath" };
  }
  if (input.bundle !== undefined && input.interpreter !== undefined) {
    const [command, ...pre] = input.interpreter.argv;
    return {
      kind: "command",
      command,
      args: [...pre, "-I", input.bundle.launcher, ...serve],
      why: `the bundled server on Python ${versionText(input.interpreter.version)} (${input.interpreter.source})`,
    };
  }
  if (input.onPath !== undefined) {
    return { kind: "command", command: input.onPath, args: serve, why: "faultlens on PATH" };
  }
  if (input.bundle !== undefined) {
    const looked = input.looked.length > 0 ? input.looked.join(", ") : "no Python at all";
    return {
      kind: "missing",
      message:
        `faultlens: its language server needs Python ${input.bundle.pythons.join(", ") || versionText(MINIMUM_PYTHON) + "+"}, ` +
        `and none was found (looked at: ${looked}). Install Python 3.11 or newer, ` +
        `or set "faultlens.interpreter" to one.`,
      setting: "interpreter",
    };
  }
  return {
    kind: "missing",
    message: missingExecutableMessage("faultlens", input.installCommand),
    setting: "serverPath",
  };
}

/** bundled/tool/launch.py of an installed extension, when it carries its server. */
export function bundleAt(
  extensionPath: string,
  exists: (file: string) => boolean,
  listDir: (dir: string) => string[],
): Bundle | undefined {
  const launcher = path.join(extensionPath, "bundled", "tool", "launch.py");
  const libs = path.join(extensionPath, "bundled", "libs");
  if (!exists(launcher) || !exists(path.join(libs, "common"))) {
    return undefined;
  }
  return { launcher, pythons: bundlePythons(listDir(libs)) };
}
