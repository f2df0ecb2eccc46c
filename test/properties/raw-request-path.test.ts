import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Fetch, PetStoreClient, RequestValidationError } from '../../src/index.js';
import { API_KEY, BASE_URL } from '../client/setup.js';

/** A client whose fetch records every request and answers it with an empty JSON object. */
function recordingClient() {
  const sent: Request[] = [];
  const fetch: Fetch = async (input, init) => {
    sent.push(new Request(input, init));
    return Response.json({});
  };
  const client = new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, fetch, maxRetries: 0 });
  return { client, sent };
}

const base = new URL(`${BASE_URL}/`);

/** The pieces a path that tries to escape is made of: dots, slashes and their encodings, schemes. */
const piece = fc.constantFrom(
  '..',
  '.',
  '%2e',
  '%2E',
  '%2e%2E',
  '.%2e',
  '%2f',
  '%2F',
  '%5c',
  '%5C',
  '\\',
  '/',
  '//',
  'pets',
  'orders',
  'http:',
  'HTTPS:',
  '//evil.example',
  'https://evil.example/',
  'evil.example',
  '@',
  ':',
  '%',
  '%zz',
  '%c0%ae',
  '?',
  '#',
  '~',
  'é',
  ' ',
  '%20',
  '\t',
);

const trickyPath = fc.oneof(
  fc.array(piece, { minLength: 1, maxLength: 8 }).map((pieces) => pieces.join('')),
  fc.string({ maxLength: 30 }),
);

/** Where a sent request went must be under the base URL, with no segment that climbs out of it. */
function expectUnderBase(request: Request, path: string): void {
  const url = new URL(request.url);
  expect(url.origin).toBe(base.origin);
  expect(url.pathname.startsWith(base.pathname)).toBe(true);
  expect(url.search).toBe('');
  expect(url.hash).toBe('');
  // What the URL parser made of it is exactly the path given: nothing was resolved away.
  expect(url.pathname).toBe(base.pathname + (path.startsWith('/') ? path.slice(1) : path));
  for (const segment of url.pathname.split('/')) {
    const decoded = decodeURIComponent(segment);
    expect(decoded === '.' || decoded === '..').toBe(false);
    expect(decoded.includes('/') || decoded.includes('\\')).toBe(false);
  }
  expect(request.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
}

describe('client.request paths', () => {
  it('are refused with RequestValidationError and nothing sent, or sent under the base URL exactly as given', async () => {
    const { client, sent } = recordingClient();
    await fc.assert(
      fc.asyncProperty(trickyPath, fc.constantFrom('GET', 'DELETE', 'PUT'), async (path, method) => {
        sent.length = 0;
        let error: unknown;
        try {
          await client.request({ method, path });
        } catch (caught) {
          error = caught;
        }
        if (error !== undefined) {
          expect(error).toBeInstanceOf(RequestValidationError);
          expect(String((error as Error).message)).not.toContain(API_KEY);
          expect(sent).toHaveLength(0);
          return;
        }
        expect(sent).toHaveLength(1);
        expectUnderBase(sent[0] as Request, path);
      }),
      { numRuns: 1000 },
    );
  });

  it('send any segment written with encodeURIComponent, unless it is a dot segment or holds a slash', async () => {
    const { client, sent } = recordingClient();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }), {
          minLength: 1,
          maxLength: 4,
        }),
        async (segments) => {
          sent.length = 0;
          const path = `/${segments.map(encodeURIComponent).join('/')}`;
          const escapes = segments.some(
            (s) => s === '.' || s === '..' || s.includes('/') || s.includes('\\'),
          );
          const outcome = await client.request({ method: 'GET', path }).then(
            () => 'sent',
            (error: unknown) => error,
          );
          if (escapes) {
            expect(outcome).toBeInstanceOf(RequestValidationError);
            expect(sent).toHaveLength(0);
          } else {
            expect(outcome).toBe('sent');
            expectUnderBase(sent[0] as Request, path);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
