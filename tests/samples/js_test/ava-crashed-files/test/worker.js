import test from 'ava';

test('exits early', t => {
  if (!t.title) return;
  process.exit(1);
});
