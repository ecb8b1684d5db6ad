const { render, count } = require("../src/report");

describe("report", () => {
  it("renders one row", () => {
    expect(render([["a", 1]])).toBe("a | 1");
  });
  it("renders no rows", () => {
    expect(render([])).toBe("");
  });
  it("counts", () => {
    expect(count([1])).toBe(1);
  });
});
