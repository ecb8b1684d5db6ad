const leftPad = require("left-pad");

module.exports = { onStart: () => console.log(leftPad("hello", 10)) };
