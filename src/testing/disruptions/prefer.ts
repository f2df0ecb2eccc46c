/**
 * The `Prefer` request header (RFC 7240) as the fake honours it: `code=NNN` answers the request with
 * that status, `delay=MS` holds the answer; Prism's convention, so tools that speak it work here.
 *
 * @module
 */

import { ERROR_CODES, errorReply, type JsonReply } from '../rules/responses.js';
import { DELAY_RANGE, isDelayInRange } from './delay-range.js';

/** What a request's `Prefer` header asks of the fake. */
export interface Preferences {
  /** Answer with this status (400 to 599) and the Error shape. */
  readonly code?: number;
  /** Hold the answer this many milliseconds. */
  readonly delayMs?: number;
}

/**
 * Reads every `Prefer` header of a request. Preferences other than `code` and `delay` are ignored, as
 * RFC 7240 asks of a server; of one given twice, the first counts. A `code` or `delay` the fake cannot
 * honour is answered 400 `invalid_preference`, naming it.
 */
export function readPreferences(headers: Headers): Preferences | JsonReply {
  const header = headers.get('prefer');
  if (header === null) return {};
  const found: { code?: string; delay?: string } = {};
  for (const preference of header.split(',')) {
    // Parameters after `;` qualify a preference; the fake has none to read.
    const [token = ''] = preference.split(';');
    const separator = token.indexOf('=');
    const name = (separator === -1 ? token : token.slice(0, separator)).trim().toLowerCase();
    if ((name !== 'code' && name !== 'delay') || found[name] !== undefined) continue;
    found[name] = separator === -1 ? '' : unquote(token.slice(separator + 1).trim());
  }
  const preferences: { code?: number; delayMs?: number } = {};
  if (found.code !== undefined) {
    const code = wholeNumber(found.code);
    if (code === undefined || code < 400 || code > 599) {
      return invalidPreference(
        `Prefer: code=${found.code} cannot be honoured: give a status from 400 to 599`,
      );
    }
    preferences.code = code;
  }
  if (found.delay !== undefined) {
    const delay = wholeNumber(found.delay);
    if (!isDelayInRange(delay)) {
      return invalidPreference(`Prefer: delay=${found.delay} cannot be honoured: give ${DELAY_RANGE}`);
    }
    preferences.delayMs = delay;
  }
  return preferences;
}

function wholeNumber(text: string): number | undefined {
  return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

function invalidPreference(message: string): JsonReply {
  return errorReply(400, ERROR_CODES.invalidPreference, message);
}
