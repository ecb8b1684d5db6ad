const { describe, it } = require("node:test");
const assert = require("node:assert");
const { firstName } = require("../src/math");

describe("error handler", () => {
  it("handles error input", () => {
    assert.throws(() => firstName({}), TypeError);
  });

  it("prints ✖ for failures elsewhere", () => {
    assert.strictEqual(firstName({ profile: { name: "Ada Lovelace" } }), "Ada");
  });
});
