import { expect, test } from 'vitest';
import { total } from './cart.js';

test('totals', () => {
  expect(total([{ price: 2, qty: 3 }])).toBe(6);
});
