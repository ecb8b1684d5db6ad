const test = require('node:test');
const assert = require('node:assert');
const { slugify } = require('../slugify');

test('lowercases words', () => {
  assert.strictEqual(slugify('Hello'), 'hello');
});

test('joins words with dashes', () => {
  assert.strictEqual(slugify('Hello World'), 'hello-world');
});
