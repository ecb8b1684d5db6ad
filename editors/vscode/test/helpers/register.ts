// Makes `require("vscode")` return the stub (the real module exists only inside VS Code).
import Module = require("node:module");
import * as stub from "./vscode-stub";

// vscode-languageclient subclasses many vscode classes when it loads; names the stub does
// not define are answered with an empty class (the tests never use them).
const placeholders = new Map<string | symbol, unknown>();
const vscode = new Proxy(stub as Record<string | symbol, unknown>, {
  get(target, key) {
    if (key in target) {
      return target[key];
    }
    if (typeof key === "string" && /^[A-Z]/.test(key)) {
      if (!placeholders.has(key)) {
        placeholders.set(key, class {});
      }
      return placeholders.get(key);
    }
    return undefined;
  },
});

type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
const mod = Module as unknown as { _load: Load };
const original = mod._load;
mod._load = function (request: string, parent: unknown, isMain: boolean): unknown {
  if (request === "vscode") {
    return vscode;
  }
  return original.call(this, request, parent, isMain);
};

export { stub };
