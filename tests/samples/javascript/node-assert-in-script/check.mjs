import assert from 'node:assert/strict';

const prices = [120, 80];
const total = prices.reduce((sum, p) => sum + p, 0);
assert.equal(total, 210, 'cart total must include shipping');
