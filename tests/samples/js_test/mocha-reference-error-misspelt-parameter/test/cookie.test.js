const assert = require('assert')
const cookie = require('../lib/cookie')

describe('cookie', function () {
  it('parses', function () {
    assert.deepStrictEqual(cookie.parse('a=b'), { name: 'a', value: 'b' })
  })
  it('serializes', function () {
    assert.strictEqual(cookie.serialize('a', 'b c'), 'a=b%20c')
  })
})
