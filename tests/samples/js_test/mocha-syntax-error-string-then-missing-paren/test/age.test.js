const assert = require('assert')
const { maxAge } = require('../lib/age')

describe('maxAge', function () {
  it('formats', function () {
    assert.strictEqual(maxAge({ maxAge: 10 }), '; Max-Age=10')
  })
})
