import { total, count } from "../src/cart.js";

describe("cart", () => {
  it("totals nothing", () => {
    expect(total([]).cents).toBe(0);
  });
  it("totals one item", () => {
    expect(total([250]).cents).toBe(250);
  });
  it('totals "special" (quoted) prices', () => {
    expect(total([1, 2]).cents).toBe(3);
  });
  describe("nested > level", () => {
    it("totals big [1e6] numbers", () => {
      expect(total([1e6]).cents).toBe(1e6);
    });
  });
  it("counts", () => {
    expect(count([1, 2])).toBe(2);
  });
});
