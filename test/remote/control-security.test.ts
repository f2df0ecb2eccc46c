import { request } from 'node:http';
import { inspect } from 'node:util';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { carriesToken, isLoopback } from '../../src/testing/control/control-access.js';
import { connectFakePetStore, createFakePetStore, FakeStoreControlError } from '../../src/testing/index.js';
import type { ControlOptions } from '../../src/testing/store/store-core.js';
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

/** A request with the `Host` header given (fetch always sends the URL's own). */
function withHost(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Host: host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('what web pages may do with the control API', () => {
  const PAGE = 'http://127.0.0.1:5173';

  it('refuses an Origin it was not told to trust, preflights included, and never answers *', async () => {
    const { store, origin } = await listen('127.0.0.1');
    const fromPage = { headers: { Origin: PAGE } };
    const read = await fetch(`${origin}/__fake/requests`, fromPage);
    const body = await expectError(read, 403, 'untrusted_origin');
    expect(body.message).toBe(
      `The control API refuses requests from the page at "${PAGE}": it serves tests, not web pages. To drive it from that page, trust its origin: control.trustedOrigins: ["${PAGE}"] for listen(), --trusted-origins ${PAGE} for the command`,
    );
    const asked = await fetch(`${origin}/__fake/faults`, {
      method: 'OPTIONS',
      headers: {
        Origin: PAGE,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    await expectError(asked, 403, 'untrusted_origin');
    const answers = [
      read,
      asked,
      await fetch(`${origin}/__fake/pets`),
      await fetch(`${origin}/__fake/nothing`, fromPage),
    ];
    for (const answer of answers) expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    store.injectFault({ status: 418 });
    await expectError(
      await fetch(`${origin}/__fake/faults`, { method: 'DELETE', headers: { Origin: 'null' } }),
      403,
      'untrusted_origin',
    );
    // The store's own routes keep the CORS a browser app needs.
    const api = await fetch(`${origin}/v1/pets`, authed(fromPage));
    expect(api.headers.get('access-control-allow-origin')).toBe('*');
    expect(api.status).toBe(418);
  });

  it('takes only JSON writes, so that no page writes without a preflight; a bodyless write may omit the type', async () => {
    const { store, origin } = await listen('127.0.0.1');
    for (const contentType of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const refused = await fetch(`${origin}/__fake/faults`, {
        method: 'POST',
        headers: { 'Content-Type': contentType },
        body: '{"status":503}',
      });
      const body = await expectError(refused, 400, 'invalid_content_type');
      expect(body.message).toContain('must be JSON sent with Content-Type: application/json');
    }
    const noType = await fetch(`${origin}/__fake/faults`, {
      method: 'POST',
      body: new Uint8Array([123, 125]),
    });
    await expectError(noType, 400, 'invalid_content_type');
    expect((await fetch(`${origin}/v1/pets`, authed())).status).toBe(200);
    expect(store.requests.map(({ status }) => status)).toEqual([200]);
    expect((await fetch(`${origin}/__fake/reset`, { method: 'POST' })).status).toBe(204);
  });

  it('refuses a Host that is neither a loopback name nor the address it listens on: DNS rebinding', async () => {
    const { server } = await listen('127.0.0.1');
    const refused = await withHost(server.port, '/__fake/requests', `rebound.example:${server.port}`);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({
      code: 'untrusted_host',
      message: expect.stringContaining(`refuses Host "rebound.example:${server.port}"`),
    });
    for (const host of [
      `localhost:${server.port}`,
      `127.0.0.1:${server.port}`,
      `[::1]:${server.port}`,
      'LOCALHOST',
    ]) {
      expect((await withHost(server.port, '/__fake/pets', host)).status).toBe(200);
    }
    for (const host of ['localhost.', '127.0.0.1.nip.io', 'evil.localhost']) {
      expect((await withHost(server.port, '/__fake/pets', host)).status, host).toBe(403);
    }
    // The store's routes serve any Host, as a service behind a name does.
    expect((await withHost(server.port, '/v1/pets', 'rebound.example')).status).toBe(401);
  });

  it('with a token on every interface, takes any Host: the token is what a page lacks', async () => {
    const { server } = await listen('0.0.0.0', { token: TOKEN });
    const answer = await new Promise<number>((resolve, reject) => {
      request(
        {
          host: '127.0.0.1',
          port: server.port,
          path: '/__fake/pets',
          headers: { Host: 'fake:4010', Authorization: `Bearer ${TOKEN}` },
        },
        (res) => resolve(res.statusCode ?? 0),
      )
        .on('error', reject)
        .end();
    });
    expect(answer).toBe(200);
  });

  it('answers the pages of trusted origins, naming the origin', async () => {
    const { origin } = await listen('127.0.0.1', { trustedOrigins: [`${PAGE}/`] });
    const answer = await fetch(`${origin}/__fake/pets`, { headers: { Origin: PAGE } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(answer.headers.get('vary')).toBe('Origin');
    await expectError(
      await fetch(`${origin}/__fake/pets`, { headers: { Origin: 'http://127.0.0.1:5174' } }),
      403,
      'untrusted_origin',
    );
  });

  it.each([
    [['*'], /cannot hold "\*"/],
    [['http://localhost:5173/app'], /no path/],
    [['null'], /must hold origins/],
    [['file:///tmp/page.html'], /must hold origins/],
    ['http://localhost:5173', /must be an array of origins/],
  ])('refuses trustedOrigins %j', async (trustedOrigins, message) => {
    await expect(
      createFakePetStore().listen({ control: { trustedOrigins: trustedOrigins as string[] } }),
    ).rejects.toThrow(message);
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
    const refused = await fetch(`${origin}/__fake/clock`, {
      method: 'POST',
      headers: { ...bearer(TOKEN).headers, 'Content-Type': 'application/json' },
      body: '{"advanceMs":"soon"}',
    });
    expect(refused.status).toBe(400);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.stdout() + cli.stderr()).not.toContain(TOKEN);
  });

  it('takes the token from PETSTORE_FAKE_CONTROL_TOKEN, and never prints it', async (context) => {
    const cli = run(['--port', '0', '--host', '0.0.0.0'], context, {
      ...process.env,
      PETSTORE_FAKE_CONTROL_TOKEN: TOKEN,
    });
    const origin = new URL(await waitForUrl(cli)).origin;
    expect((await fetch(`${origin}/__fake/pets`, bearer(TOKEN))).status).toBe(200);
    expect((await fetch(`${origin}/__fake/pets`, bearer('guess'))).status).toBe(401);
    expect(cli.stdout()).not.toContain(TOKEN);
  });

  it('beyond loopback without a token, or with --no-control: off, and says so', async (context) => {
    const open = run(['--port', '0', '--host', '0.0.0.0'], context, {
      ...process.env,
      PETSTORE_FAKE_CONTROL_TOKEN: '',
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
