import { describe, expect, it } from 'vitest';
import { parseRateLimit } from '../../src/core/rate-limit.js';

describe('parseRateLimit', () => {
  it('reads the three X-RateLimit headers', () => {
    const headers = new Headers({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '59',
      'X-RateLimit-Reset': '1795000000',
    });
    expect(parseRateLimit(headers)).toEqual({ limit: 60, remaining: 59, reset: new Date(1_795_000_000_000) });
  });

  it.each([
    ['missing', {}],
    ['partly missing', { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '1' }],
    ['negative', { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '-1', 'X-RateLimit-Reset': '1' }],
    ['fractional', { 'X-RateLimit-Limit': '60.5', 'X-RateLimit-Remaining': '1', 'X-RateLimit-Reset': '1' }],
    ['garbage', { 'X-RateLimit-Limit': 'lots', 'X-RateLimit-Remaining': '1', 'X-RateLimit-Reset': '1' }],
    ['huge', { 'X-RateLimit-Limit': '1'.repeat(30), 'X-RateLimit-Remaining': '1', 'X-RateLimit-Reset': '1' }],
  ])('gives null when the headers are %s', (_, init) => {
    expect(parseRateLimit(new Headers(init))).toBeNull();
  });
});
