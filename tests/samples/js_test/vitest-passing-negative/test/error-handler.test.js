import { firstName } from "../src/math.js";

describe("error handler", () => {
  test("handles error input", () => {
    expect(() => firstName({})).toThrow(TypeError);
  });

  test("FAIL > is only a word here", () => {
    expect(firstName({ profile: { name: "Ada Lovelace" } })).toBe("Ada");
  });
});
