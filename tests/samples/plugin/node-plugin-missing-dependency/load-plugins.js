// A small plugin host: reads each plugins/<name>/plugin.json and loads its entry.
const fs = require("node:fs");
const path = require("node:path");

for (const name of fs.readdirSync(path.join(__dirname, "plugins"))) {
  const dir = path.join(__dirname, "plugins", name);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "plugin.json"), "utf8"));
  const plugin = require(path.join(dir, manifest.entry));
  plugin.onStart();
}
