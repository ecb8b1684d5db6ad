'use strict'

function maxAge (opt) {
  var age = Math.floor(opt.maxAge)
  if (!isFinite(age)) {
    throw new TypeError('option maxAge is invalid'
  }
  return '; Max-Age=' + age
}

module.exports = { maxAge }
