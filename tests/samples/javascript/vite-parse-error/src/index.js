import { greet } from "./greeter";
console.log(greet("x"));
