const { total } = require('./cart');

console.log('total', totl([{ price: 3, qty: 2 }]));
