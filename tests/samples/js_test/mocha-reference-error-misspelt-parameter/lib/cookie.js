'use strict'

// serialize's parameter `value` was misspelt `vaule` where it is declared;
// parse has a `value` of its own, so the name is in the file more than once.

function parse (str) {
  var eq = str.indexOf('=')
  var value = str.slice(eq + 1)
  return { name: str.slice(0, eq), value: value }
}

function serialize (name, vaule) {
  return name + '=' + encodeURIComponent(value)
}

module.exports = { parse, serialize }
