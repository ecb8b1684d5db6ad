import { expect, it } from "vitest";
import { defu } from "../src/defu";

it("merges", () => {
  expect(defu({ a: 1 }, { b: 2 })).toEqual({ a: 1, b: 2 });
});
