test("parses", () => {
  const total = 1 +;
  expect(total).toBe(1);
});
