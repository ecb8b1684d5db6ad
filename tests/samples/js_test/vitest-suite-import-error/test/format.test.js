import { add } from "../src/math.js";
import { formatTotal } from "../src/format.js";

test("formats a total", () => {
  expect(formatTotal(add(1, 2))).toBe("3.00");
});
