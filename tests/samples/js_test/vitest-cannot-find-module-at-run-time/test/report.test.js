import { count, render } from "../src/report.js";

describe("report", () => {
  it("renders one row", async () => {
    expect(await render([["a", 1]])).toBe("a | 1");
  });
  it("renders no rows", async () => {
    expect(await render([])).toBe("");
  });
  it("counts", () => {
    expect(count([1])).toBe(1);
  });
});
