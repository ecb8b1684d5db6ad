export async function render(rows) {
  // loaded lazily: the formatter is only needed when a report is drawn
  const { table } = await import("./formatter.js");
  return table(rows);
}

export function count(rows) {
  return rows.length;
}
