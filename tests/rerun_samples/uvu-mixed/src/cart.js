exports.total = function total (prices) {
  return prices.reduce((a, b) => a + b, 0) + (prices.length > 2 ? 1 : 0)
}
exports.count = function count (prices) {
  return prices.length
}
exports.label = function label (p) { return 'EUR ' + fmt(p) }
