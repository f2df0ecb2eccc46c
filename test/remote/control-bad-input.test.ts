/**
 * The command's control API under bad input: every request it cannot take is answered with the Error
 * shape, and the server goes on serving, its state untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESS_TEST_TIMEOUT_MS, type Run, run, waitForUrl } from '../support/cli-process.js';
import { ensurePackageBuilt } from '../support/package-build.js';
import { expectError } from '../testing/support/transports.js';

const TOKEN = 'bad-input-token-0123';
const auth = { Authorization: `Bearer ${TOKEN}` };
let cli: Run;
let origin: string;
const finish: Array<() => void> = [];

beforeAll(async () => {
  await ensurePackageBuilt();
  cli = run(['--port', '0', '--seed', '2', '--max-body', '65536', '--control-token', TOKEN], {
    onTestFinished: (hook) => finish.push(hook as () => void),
  });
  origin = new URL(await waitForUrl(cli)).origin;
}, 120_000);

afterAll(() => {
  for (const hook of finish) hook();
});

const send = (method: string, path: string, body?: BodyInit, headers: Record<string, string> = auth) =>
  fetch(`${origin}/__fake${path}`, { method, headers, ...(body === undefined ? {} : { body }) });

/** The server still answers its control API and its API, with the state it started with. */
async function expectServing(): Promise<void> {
  const pets = await send('GET', '/pets');
  expect(pets.status).toBe(200);
  expect(await pets.json()).toHaveLength(2);
  const api = await fetch(`${origin}/v1/pets`, { headers: { Authorization: 'Bearer test-api-key' } });
  expect(api.status).toBe(200);
}

describe('the control API under bad input', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it.each<[string, string, string, BodyInit, string, RegExp]>([
    ['PUT', '/pets', 'malformed JSON', '[{"id":1,', 'invalid_json', /not valid JSON/],
    ['POST', '/faults', 'malformed JSON', "{'status':503}", 'invalid_json', /not valid JSON/],
    ['POST', '/clock', 'no body', '', 'invalid_body', /required: a clock change as JSON/],
    [
      'POST',
      '/chaos',
      'bytes that are not UTF-8',
      new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
      'invalid_json',
      /UTF-8/,
    ],
    [
      'PUT',
      '/pets',
      'JSON nested 100 deep',
      `${'['.repeat(100)}${']'.repeat(100)}`,
      'invalid_json',
      /deeper than 64/,
    ],
    [
      'PUT',
      '/pets',
      'an object, not a list',
      '{"id":1}',
      'invalid_body',
      /not a valid list of Pets: Invalid input: expected array/,
    ],
    [
      'PUT',
      '/pets',
      'an id as a string',
      '[{"id":"1","name":"Rex","categoryId":1}]',
      'invalid_body',
      /0\.id: Invalid input: expected number/,
    ],
    ['PUT', '/pets', 'a fractional id', '[{"id":1.5,"name":"Rex","categoryId":1}]', 'invalid_body', /0\.id/],
    [
      'PUT',
      '/pets',
      'an unknown status',
      '[{"id":1,"name":"Rex","categoryId":1,"status":"lost"}]',
      'invalid_body',
      /0\.status/,
    ],
    [
      'PUT',
      '/pets',
      'two pets with one id',
      '[{"id":1,"name":"A","categoryId":1},{"id":1,"name":"B","categoryId":1}]',
      'invalid_body',
      /two pets share the id 1/,
    ],
    [
      'POST',
      '/faults',
      'a status as a string',
      '{"status":"503"}',
      'invalid_body',
      /not a valid fault: status: Invalid input: expected number/,
    ],
    [
      'POST',
      '/faults',
      'a status out of range',
      '{"status":99}',
      'invalid_body',
      /status must be an integer from 200 to 599, got 99/,
    ],
    ['POST', '/faults', 'times as a word', '{"status":503,"times":"forever"}', 'invalid_body', /times/],
    [
      'POST',
      '/faults',
      'an unknown field',
      '{"status":503,"time":2}',
      'invalid_body',
      /Unrecognized key: "time"/,
    ],
    [
      'POST',
      '/faults',
      'a path that is not a string',
      '{"status":503,"match":{"path":{}}}',
      'invalid_body',
      /match\.path/,
    ],
    [
      'POST',
      '/faults',
      'a predicate',
      '{"status":503,"match":{"predicate":"() => true"}}',
      'invalid_body',
      /predicate/,
    ],
    [
      'POST',
      '/clock',
      'a string',
      '{"advanceMs":"1000"}',
      'invalid_body',
      /advanceMs: Invalid input: expected number/,
    ],
    ['POST', '/clock', 'null', '{"advanceMs":null}', 'invalid_body', /advanceMs/],
    ['POST', '/clock', 'a list', '[1000]', 'invalid_body', /expected object/],
    [
      'POST',
      '/clock',
      'a huge number',
      '{"advanceMs":1e300}',
      'invalid_body',
      /give whole milliseconds from 0/,
    ],
    ['POST', '/clock', 'a negative number', '{"advanceMs":-1}', 'invalid_body', /advanceClock/],
    [
      'POST',
      '/chaos',
      'a seed as a string',
      '{"seed":"x","rate":0.1}',
      'invalid_body',
      /seed: Invalid input: expected number/,
    ],
    ['POST', '/chaos', 'no rate', '{"seed":1}', 'invalid_body', /rate is required/],
    [
      'POST',
      '/chaos',
      'a rate over 1',
      '{"seed":1,"rate":2}',
      'invalid_body',
      /rate must be a number from 0 to 1/,
    ],
    [
      'POST',
      '/chaos',
      'an unknown fault',
      '{"seed":1,"rate":0.1,"faults":["boom"]}',
      'invalid_body',
      /faults\.0/,
    ],
  ])('%s %s with %s: 400 %s', async (method, path, _name, body, code, message) => {
    const answer = await expectError(
      await send(method, path, body, { ...auth, 'Content-Type': 'application/json' }),
      400,
      code,
    );
    expect(answer.message).toMatch(message);
    await expectServing();
  });

  it.each([
    ['GET', '/__fake', 404, 'not_found', 'No resource at GET /__fake'],
    ['GET', '/__fake/nothing', 404, 'not_found', 'No resource at GET /__fake/nothing'],
    ['GET', '/__fake/pets/1', 404, 'not_found', 'No resource at GET /__fake/pets/1'],
    ['GET', '/__fake/sessions/no-such-session/pets', 404, 'not_found', 'No session no-such-session'],
    ['DELETE', '/__fake/pets', 405, 'method_not_allowed', 'allowed: GET, PUT'],
    ['GET', '/__fake/reset', 405, 'method_not_allowed', 'allowed: POST'],
    ['PATCH', '/__fake/clock', 405, 'method_not_allowed', 'PATCH is not allowed on /__fake/clock'],
  ])('%s %s: %i %s', async (method, path, status, code, message) => {
    const answer = await expectError(
      await fetch(`${origin}${path}`, { method, headers: auth }),
      status,
      code,
    );
    expect(answer.message).toContain(message);
    await expectServing();
  });

  it('a wrong or missing token: 401, before the body is read', async () => {
    await expectError(await send('PUT', '/pets', '[]', {}), 401, 'unauthorized');
    await expectError(
      await send('PUT', '/pets', '[]', { Authorization: 'Bearer nope' }),
      401,
      'unauthorized',
    );
    await expectError(
      await send('PUT', '/pets', 'x'.repeat(200_000), { Authorization: 'Bearer nope' }),
      401,
      'unauthorized',
    );
    await expectServing();
  });

  it('a huge body, announced or streamed: 413 payload_too_large, nothing changed', async () => {
    const huge = JSON.stringify(
      Array.from({ length: 5_000 }, (_, id) => ({ id, name: 'Rex', categoryId: 1 })),
    );
    expect(huge.length).toBeGreaterThan(65_536);
    await expectError(await send('PUT', '/pets', huge), 413, 'payload_too_large');
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 40; i++)
          controller.enqueue(new TextEncoder().encode(huge.slice(i * 4_096, (i + 1) * 4_096)));
        controller.close();
      },
    });
    const answer = await fetch(`${origin}/__fake/pets`, {
      method: 'PUT',
      headers: auth,
      body: streamed,
      duplex: 'half',
    } as RequestInit);
    await expectError(answer, 413, 'payload_too_large');
    await expectServing();
  });

  it('leaves nothing behind: no fault, no chaos, no control request in the log', async () => {
    for (let i = 0; i < 5; i++) await expectServing();
    const log = await (await send('GET', '/requests')).json();
    expect(
      log.map((request: { path: string; status: number }) => `${request.path} ${request.status}`),
    ).toSatisfy((lines: string[]) => lines.every((line) => line === '/pets 200'));
    expect(cli.stderr()).toBe('');
  });
});
