const assert = require("node:assert");
const { add, firstName } = require("../src/math");

describe("math", function () {
  it("adds small numbers", function () {
    assert.strictEqual(add(1, 2), 3);
  });

  it("adds big numbers", function () {
    assert.strictEqual(add(6, 4), 10);
  });

  describe("users", function () {
    it("builds a profile", function () {
      assert.deepStrictEqual({ name: "Ada", langs: ["js"] }, { name: "Ada", langs: ["ts"] });
    });

    it("reads the first name", function () {
      assert.strictEqual(firstName({ name: "Ada Lovelace" }), "Ada");
    });
  });
});
