/**
 * Keeping keys out of what the fake writes down (HAR, snapshots, near misses): which values are
 * secrets, and every form of each replaced.
 *
 * @module
 */

/** What a secret is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * Secrets a request carried shorter than this are redacted in their header or parameter only: a
 * token like `1` or `/` searched for everywhere would mangle every URL and body, and guards nothing.
 */
const MIN_SEARCHED_LENGTH = 8;

/** Header and query parameter names whose values are credentials: `X-Api-Key`, `api_key`, `X-Auth-Token`, ... */
export function isSecretName(name: string): boolean {
  return /key|token|secret|passw|session|credential|signature|^x-auth|^auth(?!orization$)/i.test(name);
}

/** Headers holding a scheme and credentials: the scheme is kept, the credentials never. */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization']);

/** `Bearer abc` as `Bearer <marker>`; a value with no scheme (`abc`) as `<marker>` alone. */
export function redactCredentials(value: string, marker = REDACTED): string {
  const scheme = /^\s*([A-Za-z][\w.+-]*)\s+\S/.exec(value)?.[1];
  return scheme === undefined ? marker : `${scheme} ${marker}`;
}

/** `a=1; b=2` as `a=[REDACTED]; b=[REDACTED]`. */
export function redactCookie(value: string, marker = REDACTED): string {
  return value
    .split(';')
    .map((pair) => (pair.includes('=') ? `${pair.slice(0, pair.indexOf('=') + 1)}${marker}` : pair))
    .join(';');
}

/** `id=1; Path=/; HttpOnly` as `id=[REDACTED]; Path=/; HttpOnly`: the attributes stay. */
export function redactSetCookie(value: string, marker = REDACTED): string {
  const end = value.indexOf(';');
  const pair = end === -1 ? value : value.slice(0, end);
  const at = pair.indexOf('=');
  return `${at === -1 ? pair : `${pair.slice(0, at + 1)}${marker}`}${end === -1 ? '' : value.slice(end)}`;
}

/** The credentials in an `Authorization` value: what follows the scheme, or the whole value. */
function credentialsOf(value: string): string {
  const match = /^\s*[A-Za-z][\w.+-]*\s+(\S.*?)\s*$/.exec(value);
  return (match?.[1] ?? value).trim();
}

/**
 * The secrets a request or an answer carried, to be searched for everywhere: `Authorization`
 * credentials in any scheme, the values of key headers and key parameters, and cookies' values (of
 * `Cookie` and `Set-Cookie`); each long enough to be one (see {@link MIN_SEARCHED_LENGTH}).
 */
export function carriedSecrets(headers: Readonly<Record<string, string>>, url: string): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (CREDENTIAL_HEADERS.has(name)) found.push(credentialsOf(value));
    else if (name === 'cookie') found.push(...cookieValues(value));
    else if (name === 'set-cookie') found.push(...cookieValues(value.split(';')[0] ?? ''));
    else if (isSecretName(name)) found.push(value.trim());
  }
  if (URL.canParse(url)) {
    for (const [name, value] of new URL(url).searchParams) if (isSecretName(name)) found.push(value);
  }
  return found.filter((secret) => secret.length >= MIN_SEARCHED_LENGTH);
}

function cookieValues(value: string): string[] {
  return value.split(';').flatMap((pair) => {
    const at = pair.indexOf('=');
    return at === -1 ? [] : [pair.slice(at + 1).trim()];
  });
}

/** One hex digit in either case. */
const hexDigit = (digit: string): string =>
  /[a-f]/i.test(digit) ? `[${digit.toLowerCase()}${digit.toUpperCase()}]` : digit;

const hex = (value: number, width: number): string =>
  [...value.toString(16).padStart(width, '0')].map(hexDigit).join('');

const JSON_SHORT: Readonly<Record<string, string>> = {
  '"': '\\\\"',
  '\\': '\\\\\\\\',
  '/': '\\\\/',
  '\b': '\\\\b',
  '\f': '\\\\f',
  '\n': '\\\\n',
  '\r': '\\\\r',
  '\t': '\\\\t',
};

/**
 * A pattern for one character in any form it takes in a URL, a form or a JSON string: itself,
 * percent-encoded in either case, `+` for a space, `\uXXXX` in either case, or JSON's short escape.
 */
function characterForms(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  const forms = [character.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')];
  forms.push([...new TextEncoder().encode(character)].map((byte) => `%${hex(byte, 2)}`).join(''));
  if (character === ' ') forms.push('\\+');
  const codeUnits = code > 0xffff ? [character.charCodeAt(0), character.charCodeAt(1)] : [code];
  forms.push(codeUnits.map((unit) => `\\\\u${hex(unit, 4)}`).join(''));
  const short = JSON_SHORT[character];
  if (short !== undefined) forms.push(short);
  return `(?:${forms.join('|')})`;
}

/**
 * A function that replaces every form of every secret in a text with `marker` ({@link REDACTED}): as it is,
 * percent-encoded (either case, mixed too), form-encoded, and JSON-escaped. The longest first, so a
 * secret inside another leaves no part of the longer one behind.
 */
export function redactor(secrets: Iterable<string>, marker = REDACTED): (text: string) => string {
  const unique = [...new Set(secrets)].filter((secret) => secret !== '');
  if (unique.length === 0) return (text) => text;
  const pattern = new RegExp(
    unique
      .sort((a, b) => b.length - a.length)
      .map((secret) => [...secret].map(characterForms).join(''))
      .join('|'),
    'g',
  );
  return (text) => text.replace(pattern, marker);
}
