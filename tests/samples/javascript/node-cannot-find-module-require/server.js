const { loadConfig } = require("./src/settings");
console.log(loadConfig());
