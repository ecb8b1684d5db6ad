import { greet } from "./greeter";
const count: number = ;
console.log(greet("x"), count);
