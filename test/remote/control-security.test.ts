import { inspect } from 'node:util';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { carriesToken, isLoopback } from '../../src/testing/control/control-access.js';
import {
  type ControlOptions,
  connectFakePetStore,
  createFakePetStore,
  FakeStoreControlError,
} from '../../src/testing/index.js';
import { PROCESS_TEST_TIMEOUT_MS, run, waitForUrl } from '../support/cli-process.js';
import { ensurePackageBuilt } from '../support/package-build.js';
import { authed, expectError } from '../testing/support/transports.js';

const TOKEN = 'ctl-9f8e7d6c5b4a3210';

async function listen(hostname: string, control?: ControlOptions | false) {
  const store = createFakePetStore();
  const server = await store.listen({ hostname, ...(control === undefined ? {} : { control }) });
  onTestFinished(() => server.close());
  // Whatever the address listened on, this machine reaches it on loopback.
  const origin = `http://127.0.0.1:${server.port}`;
  return { store, server, origin };
}

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

describe('who may use the control API', () => {
  it('is on by default on loopback addresses', async () => {
    for (const hostname of ['127.0.0.1', 'localhost']) {
      const { server, origin } = await listen(hostname);
      expect(server.controlUrl).toBeDefined();
      expect((await fetch(`${origin}/__fake/pets`)).status).toBe(200);
    }
  });

  it('is off beyond loopback without a token: 404 saying why, while the API serves', async () => {
    const { server, origin } = await listen('0.0.0.0');
    expect(server.controlUrl).toBeUndefined();
    const body = await expectError(
      await fetch(`${origin}/__fake/reset`, { method: 'POST' }),
      404,
      'not_found',
    );
    expect(body.message).toBe(
      'No resource at POST /__fake/reset: the control API is off, as the server listens on 0.0.0.0, beyond loopback, and was given no control token',
    );
    await expectError(await fetch(`${origin}/__fake/sessions`, { method: 'POST' }), 404, 'not_found');
    expect((await fetch(`${origin}/v1/pets`, authed())).status).toBe(200);
  });

  it('is off everywhere with control: false', async () => {
    const { server, origin } = await listen('127.0.0.1', false);
    expect(server.controlUrl).toBeUndefined();
    const body = await expectError(await fetch(`${origin}/__fake/pets`), 404, 'not_found');
    expect(body.message).toContain('the server was started with the control API off');
  });

  it.each(['0.0.0.0', '127.0.0.1'])(
    'with a token, on %s: every control request needs it as a bearer token, sessions’ too',
    async (hostname) => {
      const { server, origin } = await listen(hostname, { token: TOKEN });
      expect(server.controlUrl).toBe(
        `http://${hostname === '0.0.0.0' ? '127.0.0.1' : hostname}:${server.port}/__fake`,
      );
      for (const init of [
        {},
        bearer('wrong'),
        bearer(`${TOKEN}x`),
        bearer(TOKEN.slice(0, -1)),
        { headers: { Authorization: `Basic ${TOKEN}` } },
      ]) {
        const refused = await fetch(`${origin}/__fake/pets`, init);
        const body = await expectError(refused, 401, 'unauthorized');
        expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="animal-store-fake-control"');
        expect(body.message).not.toContain(TOKEN);
      }
      expect((await fetch(`${origin}/__fake/pets`, bearer(TOKEN))).status).toBe(200);
      expect(
        (await fetch(`${origin}/__fake/pets`, { headers: { Authorization: `bearer   ${TOKEN}` } })).status,
      ).toBe(200);

      const remote = connectFakePetStore(`${origin}/v1`, { token: TOKEN });
      const session = await remote.createSession();
      await expect(connectFakePetStore(session.baseUrl).pets).rejects.toMatchObject({ status: 401 });
      expect(await session.pets).toEqual([]);
      // The session's API takes the API key, not the control token.
      expect((await fetch(`${session.baseUrl}/pets`, authed())).status).toBe(200);
    },
  );

  it('keeps the token out of errors, objects and logs', async () => {
    const { store, origin } = await listen('127.0.0.1', { token: TOKEN });
    const remote = connectFakePetStore(`${origin}/v1`, { token: TOKEN });
    await remote.pets;
    const session = await remote.createSession();
    const failure = await remote.advanceClock(-1).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FakeStoreControlError);
    for (const shown of [
      inspect(remote, { depth: 5 }),
      JSON.stringify(remote),
      inspect(session, { depth: 5 }),
      inspect(failure),
      JSON.stringify(failure),
      String(failure),
      JSON.stringify(store.requests),
    ]) {
      expect(shown).not.toContain(TOKEN);
    }
  });

  it('refuses a token a header cannot carry', async () => {
    await expect(createFakePetStore().listen({ control: { token: 'has space' } })).rejects.toThrow(
      'control.token must be non-empty printable ASCII without spaces',
    );
    await expect(createFakePetStore().listen({ control: { token: '' } })).rejects.toThrow(/control\.token/);
  });
});

describe('the rules underneath', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.20', false],
    ['example.com', false],
    ['127.example.com', false],
  ])('%s is loopback: %s', (hostname, loopback) => {
    expect(isLoopback(hostname)).toBe(loopback);
  });

  it('compares the token whole, whatever the lengths', () => {
    expect(carriesToken(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(carriesToken(`BEARER ${TOKEN}`, TOKEN)).toBe(true);
    for (const presented of [
      null,
      '',
      'Bearer',
      `Bearer ${TOKEN}0`,
      `Bearer ${TOKEN.slice(1)}`,
      `Token ${TOKEN}`,
    ]) {
      expect(carriesToken(presented, TOKEN)).toBe(false);
    }
  });
});

describe.concurrent('the command’s control API', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  beforeAll(() => ensurePackageBuilt(), 120_000);

  it('beyond loopback with --control-token: on, and the token never printed', async (context) => {
    const cli = run(['--port', '0', '--host', '0.0.0.0', '--control-token', TOKEN], context);
    const url = await waitForUrl(cli);
    const origin = new URL(url).origin;
    expect(cli.stdout()).toContain(
      `listening on ${url} (the base URL: give it to PetStoreClient and connectFakePetStore)`,
    );
    expect(cli.stdout()).toContain(
      `Control API: ${origin}/__fake (with the control token as a bearer token)`,
    );
    expect((await fetch(`${origin}/__fake/pets`)).status).toBe(401);
    expect((await fetch(`${origin}/__fake/pets`, bearer(TOKEN))).status).toBe(200);
    await fetch(`${origin}/__fake/clock`, { method: 'POST', body: '{"advanceMs":"soon"}', ...bearer(TOKEN) });
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.stdout() + cli.stderr()).not.toContain(TOKEN);
  });

  it('takes the token from ANIMAL_STORE_FAKE_CONTROL_TOKEN, and never prints it', async (context) => {
    const cli = run(['--port', '0', '--host', '0.0.0.0'], context, {
      ...process.env,
      ANIMAL_STORE_FAKE_CONTROL_TOKEN: TOKEN,
    });
    const origin = new URL(await waitForUrl(cli)).origin;
    expect((await fetch(`${origin}/__fake/pets`, bearer(TOKEN))).status).toBe(200);
    expect((await fetch(`${origin}/__fake/pets`, bearer('guess'))).status).toBe(401);
    expect(cli.stdout()).not.toContain(TOKEN);
  });

  it('beyond loopback without a token, or with --no-control: off, and says so', async (context) => {
    const open = run(['--port', '0', '--host', '0.0.0.0'], context, {
      ...process.env,
      ANIMAL_STORE_FAKE_CONTROL_TOKEN: '',
    });
    const origin = new URL(await waitForUrl(open)).origin;
    expect(open.stdout()).toContain(
      'Control API: off, as 0.0.0.0 is beyond loopback; give --control-token to turn it on',
    );
    expect((await fetch(`${origin}/__fake/pets`)).status).toBe(404);

    const off = run(['--port', '0', '--no-control'], context);
    const offOrigin = new URL(await waitForUrl(off)).origin;
    expect(off.stdout()).toContain('Control API: off (--no-control)');
    expect((await fetch(`${offOrigin}/__fake/pets`)).status).toBe(404);
  });
});
