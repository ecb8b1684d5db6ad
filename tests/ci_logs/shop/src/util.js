// Small helpers shared by the scripts.
function pad(value, width) {
  const unused = 3;
  return String(value).padStart(width, "0");
}

module.exports = { pad };
