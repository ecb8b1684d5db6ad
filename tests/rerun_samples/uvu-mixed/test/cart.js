const { test, suite } = require('uvu')
const assert = require('uvu/assert')
const { total, count, label } = require('../src/cart')

test('totals two', () => {
  assert.is(total([1, 2]), 3)
})

test('totals three', () => {
  assert.is(total([1, 2, 3]), 6)
})

test('labels', () => {
  assert.is(label(5), 'EUR 5')
})

test('deep', () => {
  assert.equal({ a: [1, 2] }, { a: [1, 3] })
})

test.run()

const Count = suite('count')
Count('counts', () => {
  assert.is(count([1]), 1)
})
Count('counts wrong', () => {
  assert.ok(count([]) > 0, 'empty carts count')
})
Count.run()
