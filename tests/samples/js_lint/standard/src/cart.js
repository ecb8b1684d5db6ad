const tax = 0.2;

function total(items) {
  let sum = 0
  for (var i = 0; i < items.length; i++) {
    sum += items[i].price
  }
  return sum * (1 + tax)
}

module.exports = { total, totl }
