import { total } from "./lib/cart.mjs";
console.log(total([1, 2]));
