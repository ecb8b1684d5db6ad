// The require of ./money was removed by mistake.

function total(prices) {
  let sum = new Money(0);
  for (const p of prices) sum = sum.add(new Money(p));
  return sum;
}

function count(prices) {
  return prices.length;
}

module.exports = { total, count };
