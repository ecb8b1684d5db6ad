import { total } from './cart';

console.log(total([{ price: 3, qty: 2 }]));
