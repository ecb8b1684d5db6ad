import { apiKey, health } from "../src/client.js";

describe("client", () => {
  it("is healthy", async () => {
    expect(await health()).toBe(200);
  });
  it("has an api key", () => {
    expect(apiKey().length).toBeGreaterThan(10);
  });
});
