/**
 * The redaction rule on its own: the key is found in every form it takes on its way back, and
 * nothing else is touched. Keys are drawn from the characters encodings treat specially.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redact } from '../../src/core/redact.js';

const MASK = '[redacted]';

/** Characters that percent-encoding, form encoding or JSON escape, beside plain ones. */
const AWKWARD = [...'+/=%&?#"\\ ~!*\'()[]{}<>:;,.@$^`|-_aZ0Suk', 'é', 'ÿ', '\u00a0', '\t'];

/** A key as the client takes one: Latin-1 text without control characters but tab. */
const key = fc.string({ unit: fc.constantFrom(...AWKWARD), minLength: 1, maxLength: 12 });

const hexLower = (text: string) => text.replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase());
const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);

/** The forms a service or a proxy may send a key back in. */
const FORMS: Record<string, (key: string) => string> = {
  raw: (text) => text,
  encodeURIComponent: (text) => encodeURIComponent(text),
  'encodeURIComponent, lower-case hex': (text) => hexLower(encodeURIComponent(text)),
  'form encoding': (text) => new URLSearchParams({ v: text }).toString().slice(2),
  'JSON string': jsonEscaped,
  'JSON with \\/': (text) => jsonEscaped(text).replaceAll('/', '\\/'),
  'JSON, every character \\u-escaped': (text) =>
    [...text].map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  'JSON, upper-case \\u escapes': (text) =>
    [...text]
      .map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`)
      .join(''),
};
const form = fc.constantFrom(...Object.keys(FORMS));

/** Text that shares no character, in either case, with a key from {@link AWKWARD} in any of its forms. */
const unrelated = fc.string({
  unit: fc.constantFrom(...'ghijlmnopqrtvwxyGHIJLMNOPQRTVWXY \u00c0\u2603'),
  maxLength: 20,
});

describe('redact', () => {
  it('replaces the key in any form with the mask, and changes no text around it', () => {
    fc.assert(
      fc.property(key, form, unrelated, unrelated, (secret, name, before, after) => {
        fc.pre([...secret].every((character) => !before.includes(character) && !after.includes(character)));
        const encoded = FORMS[name]?.(secret) ?? '';
        expect(redact(`${before}${encoded}${after}`, secret)).toBe(`${before}${MASK}${after}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves no form of the key outside the masks, whatever surrounds it', () => {
    fc.assert(
      fc.property(key, form, fc.string({ unit: fc.constantFrom(...AWKWARD) }), (secret, name, around) => {
        const encoded = FORMS[name]?.(secret) ?? '';
        const redacted = redact(`${around}${encoded}${around}${encoded}`, secret);
        for (const piece of redacted.split(MASK)) expect(piece).not.toContain(encoded);
      }),
      { numRuns: 2000 },
    );
  });

  it('changes nothing in text that holds no character of any form of the key', () => {
    fc.assert(
      fc.property(key, unrelated, (secret, text) => {
        fc.pre([...secret].every((character) => !text.includes(character)));
        expect(redact(text, secret)).toBe(text);
      }),
    );
  });

  it('finds the key in JSON property names and header names, and keeps the rest', () => {
    fc.assert(
      // Keys without the letters of the names around them.
      fc.property(fc.stringMatching(/^[g-p0-9_]{1,12}$/), (secret) => {
        const body = JSON.parse(`{"${secret}": "${secret}", "abc": "Q"}`) as Record<string, string>;
        expect(redact(body, secret)).toEqual({ [MASK]: MASK, abc: 'Q' });
        const headers = redact(new Headers({ [`x-${secret}`]: secret, 'x-abc': 'Q' }), secret.toUpperCase());
        expect([...headers]).toEqual([
          ['x-abc', 'Q'],
          ['x-redacted', MASK],
        ]);
      }),
    );
  });

  it('keeps an error of the connection whole, but for the key in its message, stack and cause', () => {
    const cause = new Error('connect ECONNREFUSED for token=sk%2Blive');
    const error = new TypeError('fetch failed', { cause });
    const redacted = redact(error, 'sk+live');
    expect(redacted).toBeInstanceOf(TypeError);
    expect(redacted.message).toBe('fetch failed');
    expect((redacted.cause as Error).message).toBe(`connect ECONNREFUSED for token=${MASK}`);
    expect(redact(error, 'absent')).toBe(error);
  });
});
