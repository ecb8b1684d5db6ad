import { describe, it, expect } from 'vitest';

describe('calc (basic)', () => {
  it('adds "1+1"', () => {
    expect(1 + 1).toBe(2);
  });
  it('other', () => {
    expect(1).toBe(1);
  });
});
