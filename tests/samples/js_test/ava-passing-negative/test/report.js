import test from 'ava';

test('reports 0 failures when the batch is clean', t => {
  t.log('Error: nothing failed, 0 failures');
  t.deepEqual({ failed: 0 }, { failed: 0 });
});

test('Uncaught exception in handler is retried', t => {
  t.notThrows(() => JSON.parse('{}'));
});

test.skip('exits with a non-zero exit code: 2 on bad input', t => {
  t.fail();
});

test.todo('✘ marks a failed row');
