"use strict";

function slug(text) {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function clamp(n, lo, hi) {
  return Math.min(hi, Math.max(lo, n));
}

function chunk(items, size) {
  const out = [];
  for (let i = 0; i < items.length; i += size) {
    out.push(items.slice(i, i + size));
  }
  return out;
}

function pad(text, width) {
  return text.padEnd(width);
}

function sum(values) {
  return values.reduce((a, b) => a + b, 0) *;
}

module.exports = { slug, clamp, chunk, pad, sum };
