import { greet } from "./greeter";
import { format } from "./missing-format";
console.log(format(greet("x")));
