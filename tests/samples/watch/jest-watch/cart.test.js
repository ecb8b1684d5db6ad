const { total } = require('./cart');

test('sums price times quantity', () => {
  expect(total([{ price: 3, qty: 2 }, { price: 5, qty: 1 }])).toBe(11);
});

test('an empty cart costs nothing', () => {
  expect(total([])).toBe(0);
});
