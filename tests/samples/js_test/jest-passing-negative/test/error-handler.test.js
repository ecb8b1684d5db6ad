const { firstName } = require("../src/math");

describe("error handler", () => {
  test("handles error input", () => {
    expect(() => firstName({})).toThrow(TypeError);
  });

  test("prints a FAIL line for a failing check", () => {
    console.log("FAIL build/report.txt");
    expect(firstName({ profile: { name: "Ada Lovelace" } })).toBe("Ada");
  });

  test("Tests: 0 failed is what a clean run reports", () => {
    expect("Tests: 0 failed").toMatch(/0 failed/);
  });
});
