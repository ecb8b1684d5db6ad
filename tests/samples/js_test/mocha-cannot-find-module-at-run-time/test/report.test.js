const assert = require("node:assert");
const { render, count } = require("../src/report");

describe("report", () => {
  it("renders one row", () => {
    assert.strictEqual(render([["a", 1]]), "a | 1");
  });
  it("renders no rows", () => {
    assert.strictEqual(render([]), "");
  });
  it("counts", () => {
    assert.strictEqual(count([1]), 1);
  });
});
