const { total } = require("./src/cart");
console.log(total([1, 2]));
