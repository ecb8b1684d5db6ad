import { formatPrice, roundPrice } from './money.js';

export function total(items) {
  return formatPrice(roundPrice(items.reduce((s, i) => s + i.cents, 0)));
}
console.log(total([{ cents: 250 }]));
