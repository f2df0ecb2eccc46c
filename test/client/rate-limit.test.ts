import { describe, expect, it } from 'vitest';
import { parseRateLimit } from '../../src/core/pacing/rate-limit.js';
import { responseTime } from '../../src/core/request/response-time.js';

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

describe('responseTime', () => {
  const sent = Date.UTC(2026, 10, 22, 12, 0, 7);
  const headers = (date?: string) => new Headers(date === undefined ? {} : { date });

  it('uses the arrival time when the host clock agrees with the Date header, being finer', () => {
    expect(responseTime(headers(new Date(sent).toUTCString()), sent + 640)).toBe(sent + 640);
  });

  it.each([
    ['a minute ahead', 60_000],
    ['a minute behind', -60_000],
    ['two seconds ahead', 2_000],
  ])('uses the Date header when the host clock is %s', (_, skew) => {
    expect(responseTime(headers(new Date(sent).toUTCString()), sent + 300 + skew)).toBe(sent);
  });

  it('uses the arrival time without a valid Date header', () => {
    expect(responseTime(headers(), 1234)).toBe(1234);
    expect(responseTime(headers('yesterday-ish'), 1234)).toBe(1234);
  });
});
