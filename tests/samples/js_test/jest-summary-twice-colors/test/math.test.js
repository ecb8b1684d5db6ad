const { add, firstName } = require("../src/math");

describe("math", () => {
  test("adds small numbers", () => {
    expect(add(1, 2)).toBe(3);
  });

  test("adds big numbers", () => {
    expect(add(6, 4)).toBe(10);
  });

  describe("users", () => {
    it("builds a profile", () => {
      expect({ name: "Ada", langs: ["js"] }).toEqual({ name: "Ada", langs: ["ts"] });
    });

    it("reads the first name", () => {
      expect(firstName({ name: "Ada Lovelace" })).toBe("Ada");
    });
  });
});
