/**
 * Authentication for the fake Animal Store: bearer API keys and their plans, and the 401 that answers
 * a request without an accepted key.
 *
 * @module
 */
import { anonymousRateLimitState, DAY_MS, PLAN_LIMITS, type Plan } from './rate-limiter.js';
import { ERROR_CODES, errorReply, rateLimitHeaders, toResponse } from './responses.js';

/**
 * Who sent a request: an accepted key and its plan, or why the request is refused (the 401 message and
 * its `WWW-Authenticate` challenge).
 */
export type Authentication =
  | { readonly ok: true; readonly key: string; readonly plan: Plan }
  | { readonly ok: false; readonly message: string; readonly challenge: string };

const REALM = 'Bearer realm="animal-store"';

/**
 * Reads `Authorization: Bearer <key>` (the scheme in any case) and looks the key up. A request with
 * no `Authorization` header is served with the `proxyKey`, when the store has one, as a backend route
 * that adds the key would send it.
 */
export function authenticate(
  headers: Headers,
  apiKeys: ReadonlyMap<string, Plan>,
  proxyKey?: string,
): Authentication {
  const authorization = headers.get('authorization');
  if (authorization === null || authorization.trim() === '') {
    const plan = proxyKey === undefined ? undefined : apiKeys.get(proxyKey);
    if (proxyKey !== undefined && plan !== undefined) return { ok: true, key: proxyKey, plan };
    return {
      ok: false,
      message: 'Missing API key: send it as "Authorization: Bearer <key>"',
      challenge: REALM,
    };
  }
  const key = bearerToken(authorization);
  if (key === undefined) {
    return {
      ok: false,
      message: 'The Authorization header must use the Bearer scheme: "Authorization: Bearer <key>"',
      challenge: `${REALM}, error="invalid_request"`,
    };
  }
  const plan = apiKeys.get(key);
  if (plan === undefined) {
    return { ok: false, message: 'Invalid API key', challenge: `${REALM}, error="invalid_token"` };
  }
  return { ok: true, key, plan };
}

/** The token of an `Authorization: Bearer <token>` header, the scheme in any case; else `undefined`. */
export function bearerToken(authorization: string): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(authorization)?.[1];
}

/**
 * The 401 for a request without an accepted key: the reason, the `WWW-Authenticate` challenge, and
 * the Free plan's untouched minute window, as a refused request cannot be attributed to a key.
 */
export function unauthorized(auth: Extract<Authentication, { ok: false }>, now: number): Response {
  return toResponse(errorReply(401, ERROR_CODES.unauthorized, auth.message), {
    ...rateLimitHeaders(anonymousRateLimitState(now)),
    'WWW-Authenticate': auth.challenge,
  });
}

/**
 * Checks the `apiKeys` option: keys without spaces, plans that exist, custom limits that are positive
 * integers, and a custom `window` from 1 ms to a day. A `proxyKey` is checked as a key too, and
 * added on the Free plan when `apiKeys` lacks it.
 *
 * @throws TypeError or RangeError for the first problem found.
 */
export function checkApiKeys(
  apiKeys: Readonly<Record<string, Plan>>,
  proxyKey?: string,
): ReadonlyMap<string, Plan> {
  const checked = new Map<string, Plan>();
  for (const [key, plan] of Object.entries(apiKeys)) {
    if (!isKey(key)) throw new TypeError(`apiKeys: a key must be non-empty without spaces, got "${key}"`);
    if (typeof plan === 'string') {
      if (!Object.hasOwn(PLAN_LIMITS, plan)) {
        throw new TypeError(
          `apiKeys["${key}"]: unknown plan "${plan}"; use ${Object.keys(PLAN_LIMITS).join(', ')} or { perMinute, perDay }`,
        );
      }
    } else {
      for (const field of ['perMinute', 'perDay'] as const) {
        const value: unknown = plan?.[field];
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
          throw new RangeError(`apiKeys["${key}"].${field} must be a positive integer, got ${String(value)}`);
        }
      }
      const windowMs: unknown = plan.window;
      if (
        windowMs !== undefined &&
        (typeof windowMs !== 'number' || !Number.isInteger(windowMs) || windowMs < 1 || windowMs > DAY_MS)
      ) {
        throw new RangeError(
          `apiKeys["${key}"].window must be a whole number of milliseconds from 1 to ${DAY_MS} (a day), got ${String(windowMs)}`,
        );
      }
    }
    checked.set(key, plan);
  }
  if (proxyKey !== undefined) {
    // Never echoed: the proxy key is a key like any other.
    if (typeof proxyKey !== 'string' || !isKey(proxyKey)) {
      throw new TypeError('proxyKey must be a non-empty string without spaces');
    }
    if (!checked.has(proxyKey)) checked.set(proxyKey, 'free');
  }
  return checked;
}

/** Whether a string can be an API key of the fake: non-empty, without spaces. */
export function isKey(key: string): boolean {
  return /^\S+$/.test(key);
}
