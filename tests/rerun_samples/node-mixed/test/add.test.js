const { describe, it } = require('node:test')
const assert = require('node:assert')
const add = (a, b) => a + b + (a === 2 ? 1 : 0)

describe('math', () => {
  describe('add', () => {
    it('adds 1 + 1', () => { assert.strictEqual(add(1, 1), 2) })
    it('adds 2 + 2', () => { assert.strictEqual(add(2, 2), 4) })
  })
})
it('passes on its re-run', () => { assert.ok(true) })
