const assert = require("node:assert");
const { describe, it } = require("node:test");
const { total, count } = require("../src/cart");

describe("cart", () => {
  it("totals nothing", () => {
    assert.strictEqual(total([]).cents, 0);
  });
  it("totals one item", () => {
    assert.strictEqual(total([250]).cents, 250);
  });
  it('totals "special" (quoted) prices', () => {
    assert.strictEqual(total([1, 2]).cents, 3);
  });
  describe("nested", () => {
    it("totals big (1e6) numbers", () => {
      assert.strictEqual(total([1e6]).cents, 1e6);
    });
  });
  it("counts", () => {
    assert.strictEqual(count([1, 2]), 2);
  });
});
