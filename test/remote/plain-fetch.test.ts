/**
 * The command driven as a client in any language would drive it: plain HTTP requests with JSON
 * written out by hand, nothing from this package but the command itself.
 */
import { describe, expect, it } from 'vitest';
import { createFakePetStore } from '../../src/testing/index.js';
import { PROCESS_TEST_TIMEOUT_MS, run, waitForUrl } from '../support/cli-process.js';
import { ensurePackageBuilt } from '../support/package-build.js';

const KEY = { Authorization: 'Bearer test-api-key' };
const JSON_TYPE = { 'Content-Type': 'application/json' };

describe.concurrent('the control API from a client that is not JavaScript', {
  timeout: PROCESS_TEST_TIMEOUT_MS,
}, () => {
  it('a session: seed it, fault it, read its log, move its clock past a window, reset and end it', async (context) => {
    await ensurePackageBuilt();
    const cli = run(['--port', '0', '--seed', '1', '--limit', '3', '--window', '60000'], context);
    const origin = new URL(await waitForUrl(cli)).origin;

    const created = await fetch(`${origin}/__fake/sessions`, { method: 'POST' });
    expect(created.status).toBe(201);
    const { id, baseUrl, controlUrl } = await created.json();
    expect(baseUrl).toBe(`${origin}/sessions/${id}/v1`);
    expect(controlUrl).toBe(`${origin}/__fake/sessions/${id}`);
    expect(created.headers.get('location')).toBe(controlUrl);

    const seeded = await fetch(`${controlUrl}/pets`, {
      method: 'PUT',
      headers: JSON_TYPE,
      body: '[{"id": 1, "name": "Rex", "categoryId": 1, "status": "available"}, {"id": 2, "name": "Tom", "categoryId": 2, "status": "sold"}]',
    });
    expect(seeded.status).toBe(200);
    expect(await (await fetch(`${baseUrl}/pets`, { headers: KEY })).json()).toEqual([
      { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
      { id: 2, name: 'Tom', categoryId: 2, status: 'sold' },
    ]);

    const fault = await fetch(`${controlUrl}/faults`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: '{"status": 503, "times": "Infinity", "match": {"method": "GET", "path": "/pets", "query": {"status": "sold"}}}',
    });
    expect(fault.status).toBe(204);
    const sold = await fetch(`${baseUrl}/pets?status=sold`, { headers: KEY });
    expect(sold.status).toBe(503);
    expect(await sold.json()).toMatchObject({ code: 'service_unavailable', status: 503 });
    expect((await fetch(`${controlUrl}/faults`, { method: 'DELETE' })).status).toBe(204);

    // The fault used no quota: one of the window's three requests is spent; two more pass, then a minute's wait.
    expect((await fetch(`${baseUrl}/pets?status=sold`, { headers: KEY })).status).toBe(200);
    expect((await fetch(`${baseUrl}/pets`, { headers: KEY })).status).toBe(200);
    const limited = await fetch(`${baseUrl}/pets`, { headers: KEY });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(55);
    const before = Date.parse(limited.headers.get('date') ?? '');

    const moved = await fetch(`${controlUrl}/clock`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: '{"advanceMs": 60000}',
    });
    expect(moved.status).toBe(200);
    const { now } = await moved.json();
    expect(now).toBeGreaterThanOrEqual(before + 60_000);
    const passed = await fetch(`${baseUrl}/pets`, { headers: KEY });
    expect(passed.status).toBe(200);
    expect(passed.headers.get('x-ratelimit-remaining')).toBe('2');
    expect(Date.parse(passed.headers.get('date') ?? '')).toBeGreaterThanOrEqual(before + 60_000);

    const log = await (await fetch(`${controlUrl}/requests`)).json();
    expect(
      log.map(
        (entry: { method: string; url: string; status: number }) =>
          `${entry.method} ${entry.url} ${entry.status}`,
      ),
    ).toEqual([
      `GET ${baseUrl}/pets 200`,
      `GET ${baseUrl}/pets?status=sold 503`,
      `GET ${baseUrl}/pets?status=sold 200`,
      `GET ${baseUrl}/pets 200`,
      `GET ${baseUrl}/pets 429`,
      `GET ${baseUrl}/pets 200`,
    ]);
    expect(log[0].headers.authorization).toBe('Bearer test-api-key');

    expect((await fetch(`${controlUrl}/reset`, { method: 'POST' })).status).toBe(204);
    expect(await (await fetch(`${controlUrl}/pets`)).json()).toEqual([
      { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
    ]);
    expect(await (await fetch(`${controlUrl}/requests`)).json()).toEqual([]);

    expect((await fetch(controlUrl, { method: 'DELETE' })).status).toBe(204);
    const gone = await fetch(`${baseUrl}/pets`, { headers: KEY });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ code: 'not_found', status: 404 });
    // The root store saw none of it.
    expect(await (await fetch(`${origin}/__fake/requests`)).json()).toEqual([]);
  });

  it('chaos from --chaos-seed and --chaos-rate: the same faults as in process, and over POST /__fake/chaos', async (context) => {
    await ensurePackageBuilt();
    const cli = run(
      ['--port', '0', '--plan', 'enterprise', '--chaos-seed', '2024', '--chaos-rate', '0.4'],
      context,
    );
    const url = await waitForUrl(cli);
    expect(cli.stdout()).toContain(
      'Chaos: seed 2024, a share of 0.4 of the requests gets a fault (500, 502, 503, 504, 429, network-error)',
    );

    const outcomes = async (baseUrl: string, fetchImpl: typeof fetch = fetch) => {
      const seen: Array<number | string> = [];
      for (let i = 0; i < 25; i++) {
        seen.push(
          await fetchImpl(`${baseUrl}/pets`, { headers: KEY }).then(
            (response) => response.status,
            () => 'network-error',
          ),
        );
      }
      return seen;
    };
    const fromCommand = await outcomes(url);
    expect(fromCommand.filter((outcome) => outcome !== 200).length).toBeGreaterThan(4);

    const inProcess = createFakePetStore({ apiKeys: { 'test-api-key': 'enterprise' } });
    inProcess.injectChaos({ seed: 2024, rate: 0.4 });
    expect(await outcomes(inProcess.baseUrl, inProcess.fetch as typeof fetch)).toEqual(fromCommand);

    const log = await (await fetch(`${new URL(url).origin}/__fake/requests`)).json();
    expect(log.filter((entry: { chaos?: unknown }) => entry.chaos !== undefined)).toHaveLength(
      fromCommand.filter((outcome) => outcome !== 200).length,
    );
    expect(log.find((entry: { chaos?: unknown }) => entry.chaos !== undefined).chaos).toMatchObject({
      seed: 2024,
    });

    // A session starts without chaos; POST /__fake/sessions/<id>/chaos gives it the same.
    const session = await (await fetch(`${new URL(url).origin}/__fake/sessions`, { method: 'POST' })).json();
    expect((await outcomes(session.baseUrl)).every((outcome) => outcome === 200)).toBe(true);
    await fetch(`${session.controlUrl}/reset`, { method: 'POST' });
    const chaos = await fetch(`${session.controlUrl}/chaos`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"seed": 2024, "rate": 0.4}',
    });
    expect(chaos.status).toBe(204);
    // The session's key is on the Free plan: 25 more requests stay within its 60 a minute.
    expect(await outcomes(session.baseUrl)).toEqual(fromCommand);
    expect((await fetch(`${session.controlUrl}/chaos`, { method: 'DELETE' })).status).toBe(204);
    expect((await outcomes(session.baseUrl)).every((outcome) => outcome === 200)).toBe(true);
  });
});
