function render(rows) {
  // loaded lazily: the formatter is only needed when a report is drawn
  const { table } = require("./formatter");
  return table(rows);
}

function count(rows) {
  return rows.length;
}

module.exports = { render, count };
