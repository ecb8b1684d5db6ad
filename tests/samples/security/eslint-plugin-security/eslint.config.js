const security = require("eslint-plugin-security");

module.exports = [security.configs.recommended];
