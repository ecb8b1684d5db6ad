import assert from 'node:assert';

describe('calc (basic)', () => {
  it('adds "1+1"', () => {
    assert.strictEqual(1 + 1, 2);
  });
});
