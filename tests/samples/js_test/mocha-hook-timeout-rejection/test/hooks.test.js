const assert = require("node:assert");
describe("db", function () {
  beforeEach(function () {
    throw new Error("cannot connect to db");
  });
  it("reads rows", function () {
    assert.ok(true);
  });
});
describe("async", function () {
  it("times out", function (done) {
    this.timeout(50);
  });
  it("rejects", async function () {
    await Promise.reject(new RangeError("bad range: 7"));
  });
});
