// Finding the faultlens executable: pure, so it is tested without VS Code.
import * as path from "node:path";

export interface Lookup {
  /** The first workspace folder (for `${workspaceFolder}` and relative paths). */
  workspaceFolder?: string;
  home?: string;
  /** The PATH to search for a bare name. */
  pathEnv?: string;
  platform?: NodeJS.Platform;
  /** True when `file` exists and may be executed. */
  isExecutable: (file: string) => boolean;
}

/** `serverPath` with `${workspaceFolder}`, `${userHome}` and a leading `~` expanded. */
export function expandServerPath(serverPath: string, lookup: Pick<Lookup, "workspaceFolder" | "home">): string {
  let out = serverPath.trim();
  if (lookup.workspaceFolder !== undefined) {
    out = out.split("${workspaceFolder}").join(lookup.workspaceFolder);
  }
  if (lookup.home !== undefined) {
    out = out.split("${userHome}").join(lookup.home);
    if (out === "~" || out.startsWith("~/")) {
      out = lookup.home + out.slice(1);
    }
  }
  return out;
}

/**
 * The absolute path of the executable `serverPath` names, or undefined when there is none.
 * A bare name is looked up on PATH; a relative path is taken from the workspace folder.
 */
export function resolveExecutable(serverPath: string, lookup: Lookup): string | undefined {
  const expanded = expandServerPath(serverPath, lookup);
  if (expanded === "") {
    return undefined;
  }
  const platform = lookup.platform ?? process.platform;
  const p = platform === "win32" ? path.win32 : path.posix;
  const exts = platform === "win32" ? ["", ".exe", ".cmd", ".bat"] : [""];
  const hasDir = expanded.includes("/") || (platform === "win32" && expanded.includes("\\"));
  const candidates: string[] = [];
  if (hasDir) {
    const base = p.isAbsolute(expanded) ? expanded : p.resolve(lookup.workspaceFolder ?? ".", expanded);
    candidates.push(base);
  } else {
    const sep = platform === "win32" ? ";" : ":";
    for (const dir of (lookup.pathEnv ?? "").split(sep)) {
      if (dir !== "") {
        candidates.push(p.join(dir, expanded));
      }
    }
  }
  for (const file of candidates) {
    for (const ext of exts) {
      if (lookup.isExecutable(file + ext)) {
        return file + ext;
      }
    }
  }
  return undefined;
}

/** The message shown when the executable cannot be found. */
export function missingExecutableMessage(serverPath: string, installCommand: string): string {
  return (
    `faultlens: the language server executable "${serverPath}" was not found. ` +
    `Install it with \`${installCommand}\` (in the environment VS Code runs in), ` +
    `or set "faultlens.serverPath" to the faultlens executable.`
  );
}
