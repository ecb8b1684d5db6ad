// Starting and stopping a scratch code-server (a real VS Code) for one test run.
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const CODE_SERVER = path.join(here, "..", "node_modules", ".bin", "code-server");

/** A free TCP port on the loopback interface. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Scratch folders so nothing is written to the home folder. */
export function scratchDirs(root) {
  const dirs = {
    userData: path.join(root, "user-data"),
    extensions: path.join(root, "extensions"),
    config: path.join(root, "xdg-config"),
    data: path.join(root, "xdg-data"),
    cache: path.join(root, "xdg-cache"),
  };
  for (const d of Object.values(dirs)) {
    fs.mkdirSync(d, { recursive: true });
  }
  return dirs;
}

export function codeServerEnv(dirs, extraPath, pathOverride) {
  // pathOverride: the whole PATH (a machine with nothing but what it lists).
  const base = pathOverride ?? process.env.PATH;
  return {
    ...process.env,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache,
    PATH: extraPath ? `${extraPath}${path.delimiter}${base}` : base,
  };
}

/** `code-server --install-extension VSIX` into the scratch folders. */
export function installExtension(vsix, dirs, env) {
  const r = spawnSync(
    CODE_SERVER,
    ["--install-extension", vsix, "--force", "--extensions-dir", dirs.extensions, "--user-data-dir", dirs.userData],
    { env, encoding: "utf8", timeout: 120_000 },
  );
  if (r.status !== 0) {
    throw new Error(`install-extension failed (${r.status}): ${r.stdout}\n${r.stderr}`);
  }
  return r.stdout.trim();
}

/** User settings for the run. */
export function writeUserSettings(dirs, settings) {
  const file = path.join(dirs.userData, "User", "settings.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
  return file;
}

/**
 * Start code-server in its own process group (its children outlive the main process, so
 * `stop` kills the whole group) and wait for /healthz.
 */
export async function startCodeServer({ dirs, env, port, workspace, logFile, timeoutMs = 60_000 }) {
  const log = fs.openSync(logFile, "a");
  const child = spawn(
    CODE_SERVER,
    [
      "--auth", "none",
      "--bind-addr", `127.0.0.1:${port}`,
      "--disable-telemetry",
      "--disable-update-check",
      "--disable-workspace-trust",
      "--disable-getting-started-override",
      "--user-data-dir", dirs.userData,
      "--extensions-dir", dirs.extensions,
      workspace,
    ],
    { env, detached: true, stdio: ["ignore", log, log] },
  );
  fs.closeSync(log);
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
    setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, 2000).unref();
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  let exited = null;
  child.on("exit", (code) => (exited = code));
  while (Date.now() < deadline) {
    if (exited !== null) {
      throw new Error(`code-server exited with ${exited}; see ${logFile}`);
    }
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) {
        return { url, stop, pid: child.pid };
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  stop();
  throw new Error(`code-server did not answer /healthz within ${timeoutMs} ms; see ${logFile}`);
}
