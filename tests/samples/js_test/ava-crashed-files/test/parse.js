import test from 'ava';

test('parses', t => {
  t.is(JSON.parse('{"a":1}').a, 1;
});
