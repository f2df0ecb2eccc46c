/**
 * Who may use the control API: on by default on a loopback address, off beyond it unless a token is
 * given, and with a token, only requests that carry it (compared in constant time).
 *
 * @module
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { bearerToken } from '../rules/auth.js';
import type { ControlOptions } from '../store/store-core.js';

/** Whether the control API is on, and what it asks of each request. */
export type ControlAccess =
  | { readonly enabled: true; readonly token: string | undefined }
  | { readonly enabled: false; readonly reason: string };

/**
 * Decides the access of a server listening on `hostname`.
 *
 * @throws TypeError when the token is empty or holds white space (a header cannot carry it).
 */
export function controlAccess(hostname: string, control: ControlOptions | false | undefined): ControlAccess {
  if (control === false) return { enabled: false, reason: 'the server was started with the control API off' };
  const token = control?.token;
  if (token !== undefined && !/^[\x21-\x7e]+$/.test(token)) {
    throw new TypeError('control.token must be non-empty printable ASCII without spaces');
  }
  if (token !== undefined) return { enabled: true, token };
  if (isLoopback(hostname)) return { enabled: true, token: undefined };
  return {
    enabled: false,
    reason: `the server listens on ${hostname}, beyond loopback, and was given no control token`,
  };
}

/** Whether `hostname` reaches this machine only: `localhost`, 127.0.0.0/8, `::1` (also IPv4-mapped). */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '::1') return true;
  const v4 = host.startsWith('::ffff:') ? host.slice('::ffff:'.length) : host;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/**
 * Whether an `Authorization` header carries the token as a bearer token. Both sides are hashed first so
 * that `timingSafeEqual` compares equal lengths: the time taken says nothing about the token.
 */
export function carriesToken(authorization: string | null, token: string): boolean {
  const presented = bearerToken(authorization ?? '') ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(token));
}
