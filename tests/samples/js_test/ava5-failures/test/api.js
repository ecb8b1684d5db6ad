import test from 'ava';

test('fetches the slug index', async t => {
  const res = await fetch('http://127.0.0.1:59999/slugs');
  t.is(res.status, 200);
});
