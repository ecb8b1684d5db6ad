// The import of Money was removed by mistake.

export function total(prices) {
  let sum = new Money(0);
  for (const p of prices) sum = sum.add(new Money(p));
  return sum;
}

export function count(prices) {
  return prices.length;
}
