import assert from 'node:assert';
import { describe, it } from 'node:test';

describe('calc (basic)', () => {
  it('adds "1+1"', () => {
    assert.strictEqual(1 + 1, 2);
  });
});
