const assert = require("node:assert");
const { describe, it } = require("node:test");
const { slug, sum } = require("../lib/utils");

describe("utils", () => {
  it("slugs", () => {
    assert.strictEqual(slug("Hello World"), "hello-world");
  });
  it("sums", () => {
    assert.strictEqual(sum([1, 2]), 3);
  });
});
