const { total } = require('../src/cart');

test('totals', () => {
  expect(total([{ price: 2, qty: 3 }])).toBe(6);
});
