import test from 'ava';

const queue = [];

test('drains the queue', t => {
  console.log('draining', queue.length, 'jobs');
  console.error('Error: queue empty (expected in this test)');
  t.log('checked');
  t.is(queue.length, 1);
});

test('accepts jobs', t => {
  queue.push({});
  t.is(queue.length, 1);
});
