import fc from 'fast-check';
import { MAX_TIMEOUT_MS, STATUSES } from './oracle.js';

/** Numbers that break naive checks: fractions, NaN, infinities, -0, and integers past 2^53. */
export const oddNumber: fc.Arbitrary<number> = fc.oneof(
  fc.double(),
  fc.constantFrom(
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    -0,
    0.5,
    1e-7,
    1e21,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53),
    2 ** 63,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
  ),
);

/** Values of the wrong type where a scalar belongs. */
export const notAScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.bigInt(),
  fc.array(fc.anything(), { maxLength: 3 }),
  fc.object({ maxDepth: 1, maxKeys: 3 }),
  fc.constant(Symbol('status')),
  fc.constant(() => 1),
);

/** Anything at all, including the odd kinds of object. */
export const anything: fc.Arbitrary<unknown> = fc.anything({
  maxDepth: 2,
  maxKeys: 4,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withBigInt: true,
  withSparseArray: true,
  withUnicodeString: true,
});

/** Strings from the whole of Unicode, lone surrogates included. */
export const unicodeString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom('', ' ', '\0', '\u202e', '\ud800', 'Rex\r\nX-Injected: 1', '🐶'.repeat(50)),
);

export const status: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...STATUSES) },
  fc.constantFrom('Available', 'SOLD', ' pending', 'sold ', 'lost', '', 'available,sold', 'sold&limit=5'),
  unicodeString,
  notAScalar,
);

export const limit: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 1, max: 100 }) },
  fc.integer({ min: -5, max: 110 }),
  fc.integer(),
  oddNumber,
  fc.constantFrom('10', '1e1', ' 5'),
  notAScalar,
);

/** An integer id, mostly of a seeded animal, or anything that is not an int64 a number can hold. */
export const petId: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -2, max: 6 }) },
  { weight: 2, arbitrary: fc.maxSafeInteger() },
  fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, -0),
  oddNumber,
  fc.constantFrom('1', '1/../2', '1?limit=5', '0x1'),
  notAScalar,
);

const extraKeys = fc.dictionary(
  fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('offset', 'Limit', 'stauts', 'id', 'constructor')),
  anything,
  { minKeys: 1, maxKeys: 2 },
);

/** A record built from `fields` (each possibly missing), sometimes with unknown keys added. */
function withOddKeys<T extends Record<string, unknown>>(fields: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: fields },
    fc.tuple(fields, extraKeys).map(([known, extra]) => ({ ...extra, ...known })),
  );
}

export const listParams: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: withOddKeys(fc.record({ limit, status }, { requiredKeys: [] })) },
  fc.constant(undefined),
  anything,
);

export const categoryId: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: fc.integer() },
  { weight: 2, arbitrary: fc.maxSafeInteger() },
  oddNumber,
  fc.constantFrom('1', '01'),
  notAScalar,
);

export const petName: fc.Arbitrary<unknown> = fc.oneof({ weight: 8, arbitrary: unicodeString }, notAScalar);

export const newPet: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 6,
    arbitrary: withOddKeys(
      fc.record({ name: petName, categoryId, status }, { requiredKeys: ['name', 'categoryId'] }),
    ),
  },
  withOddKeys(fc.record({ name: petName, categoryId, status }, { requiredKeys: [] })),
  anything,
);

/** A header name: ordinary ones, the bearer's own in any case, and names that are not tokens. */
export const headerName: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[!#$%&'*+.^`|~0-9A-Za-z_-]{1,16}$/) },
  fc.constantFrom(
    'X-Request-Id',
    'Accept',
    'Accept-Language',
    'Cache-Control',
    'If-None-Match',
    'User-Agent',
  ),
  fc.constantFrom('Authorization', 'authorization', 'AUTHORIZATION'),
  fc.constantFrom('constructor', 'toString', 'hasOwnProperty', 'valueOf'),
  fc.constantFrom('', 'bad header', 'x:y', 'x\ny', 'é', '(x)', 'x/y'),
  fc.string({ maxLength: 10 }),
);

/** Header values from the Latin-1 range, with the odd control character (CR, LF, NUL, \x01, \x0b, DEL). */
export const latin1HeaderValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 20 }) },
  fc.string({
    unit: fc.integer({ min: 0, max: 0xff }).map((code) => String.fromCharCode(code)),
    maxLength: 20,
  }),
  fc.constantFrom(
    '',
    ' padded ',
    '\tx\t',
    'a\r\nX-Injected: 1',
    'a\nb',
    'a\0b',
    'café',
    'a\x01b',
    'a\x0bb',
    'a\x7fb',
  ),
);

/** Header maps with names distinct in any case, so each sent value has one expected value. */
export function headerMap(value: fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .uniqueArray(fc.tuple(headerName, value), { maxLength: 4, selector: ([name]) => name.toLowerCase() })
    .map((entries) => Object.fromEntries(entries));
}

export const timeout: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: MAX_TIMEOUT_MS }) },
  fc.constantFrom(1, MAX_TIMEOUT_MS, MAX_TIMEOUT_MS + 1, 0, -1, 1.5, 2 ** 53),
  oddNumber,
  fc.constantFrom('1000', '1s'),
  notAScalar,
);

export const maxRetries: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 10 }) },
  fc.integer({ min: -3, max: 20 }),
  oddNumber,
  fc.constantFrom('2'),
  notAScalar,
);

/** A live signal, made fresh for each run, or something that only looks like one. */
export const signal: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(null).map(() => new AbortController().signal) },
  fc.constant({ aborted: false, addEventListener() {}, removeEventListener() {} }),
  fc.constantFrom('signal', 0),
  notAScalar,
);

/** Request options built from the given header values. */
export function requestOptions(headerValue: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const headers = fc.oneof({ weight: 4, arbitrary: headerMap(headerValue) }, anything);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    {
      weight: 6,
      arbitrary: withOddKeys(fc.record({ signal, timeout, maxRetries, headers }, { requiredKeys: [] })),
    },
    fc.constant(null),
    anything,
  );
}

/** Request options whose header values stay within what `Headers` accepts. */
export const latin1RequestOptions: fc.Arbitrary<unknown> = requestOptions(
  fc.oneof({ weight: 5, arbitrary: latin1HeaderValue }, notAScalar),
);
