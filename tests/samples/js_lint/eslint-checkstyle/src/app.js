import { helper } from "./util.js";

export function check(value) {
  const unused = 1;
  if (value == null) {
    console.log("empty");
  }
  return missingFn(value);
}
