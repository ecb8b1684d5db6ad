const { describe, it } = require("node:test");
const assert = require("node:assert");
const { add, firstName } = require("../src/math");

describe("math", () => {
  it("adds small numbers", () => {
    assert.strictEqual(add(1, 2), 3);
  });

  it("adds big numbers", () => {
    assert.strictEqual(add(6, 4), 10);
  });

  describe("users", () => {
    it("builds a profile", () => {
      assert.deepStrictEqual({ name: "Ada", langs: ["js"] }, { name: "Ada", langs: ["ts"] });
    });

    it("reads the first name", () => {
      assert.strictEqual(firstName({ name: "Ada Lovelace" }), "Ada");
    });
  });
});
