const { add } = require("../src/math");
const { formatTotal } = require("../src/format");

test("formats a total", () => {
  expect(formatTotal(add(1, 2))).toBe("3.00");
});
