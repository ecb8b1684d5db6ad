import test from 'ava';

test('schedules', t => {
  setTimeout(() => { throw new TypeError('job.run is not a function'); }, 0);
  return new Promise(resolve => setTimeout(resolve, 50));
});
