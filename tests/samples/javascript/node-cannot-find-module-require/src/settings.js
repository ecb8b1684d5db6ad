const defaults = require("./config");
exports.loadConfig = () => ({ ...defaults });
