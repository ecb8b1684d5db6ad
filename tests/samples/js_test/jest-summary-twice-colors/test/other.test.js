test("top-level check", () => {
  expect([1, 2, 3]).toContain(4);
});
