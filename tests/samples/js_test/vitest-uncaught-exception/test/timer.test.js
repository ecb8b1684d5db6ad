test("closes the socket", () => {
  setTimeout(() => { throw new TypeError("late failure: socket closed"); }, 1);
  expect(1).toBe(1);
});
test("waits", async () => {
  await new Promise((r) => setTimeout(r, 50));
});
