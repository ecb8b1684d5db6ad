const assert = require("node:assert");
const { health, databaseUrl } = require("../src/client");

describe("client", () => {
  it("is healthy", async () => {
    assert.strictEqual(await health(), 200);
  });
  it("knows its database", () => {
    assert.ok(databaseUrl().startsWith("postgres://"));
  });
});
