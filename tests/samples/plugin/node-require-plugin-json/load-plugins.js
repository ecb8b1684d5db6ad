// A small plugin host: loads every plugins/<name>/plugin.json manifest.
const fs = require("node:fs");
const path = require("node:path");

for (const name of fs.readdirSync(path.join(__dirname, "plugins"))) {
  const manifest = require(path.join(__dirname, "plugins", name, "plugin.json"));
  console.log(`loaded plugin ${manifest.name} ${manifest.version}: ${manifest.description}`);
}
