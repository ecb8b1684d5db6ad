import * as assert from "node:assert/strict";
import { test } from "node:test";

import { INSTALL_COMMAND } from "../src/common/constants";
import { expandServerPath, missingExecutableMessage, resolveExecutable } from "../src/common/executable";

const present = (files: string[]) => (file: string) => files.includes(file);

test("a bare name is found on PATH, first directory first", () => {
  const found = resolveExecutable("faultlens", {
    pathEnv: "/usr/local/bin:/venv/bin:/usr/bin",
    platform: "linux",
    isExecutable: present(["/venv/bin/faultlens", "/usr/bin/faultlens"]),
  });
  assert.equal(found, "/venv/bin/faultlens");
});

test("a bare name missing from PATH resolves to nothing", () => {
  const found = resolveExecutable("faultlens", { pathEnv: "/usr/bin:/bin", platform: "linux", isExecutable: present([]) });
  assert.equal(found, undefined);
});

test("${workspaceFolder} and relative paths are taken from the workspace folder", () => {
  const lookup = {
    workspaceFolder: "/work/proj",
    home: "/home/me",
    platform: "linux" as const,
    isExecutable: present(["/work/proj/.venv/bin/faultlens"]),
  };
  assert.equal(resolveExecutable("${workspaceFolder}/.venv/bin/faultlens", lookup), "/work/proj/.venv/bin/faultlens");
  assert.equal(resolveExecutable(".venv/bin/faultlens", lookup), "/work/proj/.venv/bin/faultlens");
  assert.equal(expandServerPath("~/bin/faultlens", lookup), "/home/me/bin/faultlens");
});

test("on Windows a name is found with its .exe", () => {
  const found = resolveExecutable("faultlens", {
    pathEnv: "C:\\py\\Scripts;C:\\other",
    platform: "win32",
    isExecutable: present(["C:\\py\\Scripts\\faultlens.exe"]),
  });
  assert.equal(found, "C:\\py\\Scripts\\faultlens.exe");
});

test("the missing-executable message names the setting and the install command", () => {
  const message = missingExecutableMessage("faultlens", INSTALL_COMMAND);
  assert.match(message, /pip install faultlens/);
  assert.match(message, /faultlens\.serverPath/);
  assert.match(message, /"faultlens"/);
});
