const fs = require("fs");
const { exec } = require("child_process");

function readUpload(dir, name) {
  return fs.readFileSync(dir + "/" + name, "utf8");
}

function convert(file) {
  exec("convert " + file + " out.png");
}

function isSafe(input) {
  return /^(a+)+$/.test(input);
}

module.exports = { readUpload, convert, isSafe };
