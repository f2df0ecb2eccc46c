import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fetch, NotFoundError, PetStoreClient } from '../../src/index.js';
import { createFakePetStore, type Har, type RecordedRequest } from '../../src/testing/index.js';
import { PROCESS_TEST_TIMEOUT_MS, run, waitForUrl } from '../support/cli-process.js';
import { ensurePackageBuilt } from '../support/package-build.js';

const KEY = 'sk-record-replay-secret-0123456789';

beforeAll(() => ensurePackageBuilt(), 120_000);

function clientAt(baseUrl: string, fetch?: Fetch) {
  return new PetStoreClient({
    apiKey: KEY,
    baseUrl,
    maxRetries: 0,
    timeout: 5_000,
    deprecationWarnings: false,
    ...(fetch === undefined ? {} : { fetch }),
  });
}

/** What an app does: list a page, adopt (create) a pet, show its card, a card that falls back, list again. */
async function app(client: PetStoreClient) {
  const page = await client.listPets({ limit: 2, status: 'available' });
  const adopted = await client.createPet({ name: 'Bella', categoryId: 2, status: 'pending' });
  const card = await client.getPet(adopted.id);
  const fallback = await client.getPet(9_999).then(
    () => 'found',
    (error: unknown) => (error instanceof NotFoundError ? `fallback: ${error.code}` : String(error)),
  );
  const all = await client.listPets();
  return { page, adopted, card, fallback, all };
}

async function requestsAt(controlUrl: string): Promise<RecordedRequest[]> {
  return (await (await fetch(`${controlUrl}/requests`)).json()) as RecordedRequest[];
}

/** Stops a command with SIGTERM, within a bound. */
async function stop(cli: ReturnType<typeof run>): Promise<number | null> {
  cli.child.kill('SIGTERM');
  return Promise.race([
    cli.exited,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('the command did not stop')), 10_000),
    ),
  ]);
}

describe('record against a real deployment, then replay', () => {
  it(
    'gives the app the same results from the recording as from the deployment, over HTTP and in process',
    async (context) => {
      const dir = mkdtempSync(join(tmpdir(), 'animal-store-har-'));
      context.onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const file = join(dir, 'pets.har');

      // The "real" deployment: a fake of its own, with a key the recording must never hold.
      const real = run(['--port', '0', '--seed', '5', '--key', KEY, '--plan', 'pro'], context);
      const realUrl = await waitForUrl(real);
      const realControl = realUrl.replace(/\/v1$/, '/__fake');

      const recorder = run(['--port', '0', '--record', file, '--upstream', realUrl], context);
      const recorderUrl = await waitForUrl(recorder);
      expect(recorder.stdout()).toContain(`Recording: every request is forwarded to ${realUrl}`);
      const live = await app(clientAt(recorderUrl));
      const liveHar = (await (
        await fetch(`${recorderUrl.replace(/\/v1$/, '/__fake')}/requests.har`)
      ).json()) as Har;
      expect(await stop(recorder)).toBe(0);
      expect(recorder.stdout()).toMatch(/Recorded 5 requests to /);

      const text = readFileSync(file, 'utf8');
      expect(text).not.toContain(KEY);
      const har = JSON.parse(text) as Har;
      expect(har).toEqual(liveHar);
      const realRequests = await requestsAt(realControl);

      const replayer = run(['--port', '0', '--replay', file], context);
      const replayUrl = await waitForUrl(replayer);
      expect(replayer.stdout()).toContain(`Replaying: 5 recorded requests from ${file}`);
      const replayed = await app(clientAt(replayUrl));
      const replayRequests = await requestsAt(replayUrl.replace(/\/v1$/, '/__fake'));

      const inProcess = createFakePetStore({ replay: har });
      const inProcessResults = await app(clientAt(inProcess.baseUrl, inProcess.fetch));

      expect(live.fallback).toBe('fallback: not_found');
      expect(live.all).toHaveLength(6);
      expect(replayed).toEqual(live);
      expect(inProcessResults).toEqual(live);
      // Every request reached the deployment once, was recorded once, and was answered once from the recording.
      const counts = {
        deployment: realRequests.length,
        recorded: har.log.entries.length,
        replayedOverHttp: replayRequests.length,
        replayedInProcess: inProcess.requests.length,
      };
      expect(counts).toEqual({ deployment: 5, recorded: 5, replayedOverHttp: 5, replayedInProcess: 5 });
      expect(replayRequests.map((request) => request.status)).toEqual([200, 201, 200, 404, 200]);

      // A request the app did not make while recording: the Error names the nearest recorded one.
      const stray = await fetch(`${replayUrl}/pets?limit=3&status=available`, {
        headers: { Authorization: `Bearer ${KEY}` },
      });
      expect(stray.status).toBe(501);
      expect(await stray.json()).toMatchObject({
        code: 'not_recorded',
        message: expect.stringMatching(
          /^Replay: no recorded request matches GET \/pets\?limit=3&status=available\. The nearest recorded, entry 0: GET \/pets\?limit=2&status=available, differs in query/,
        ),
      });
      expect(await stop(replayer)).toBe(0);
    },
    PROCESS_TEST_TIMEOUT_MS * 2,
  );

  it('exits 1 with a clear message when the recording cannot be read', async (context) => {
    const cli = run(['--port', '0', '--replay', join(tmpdir(), 'no-such-recording.har')], context);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toMatch(/cannot read the recording .*no-such-recording\.har/);
  });
});
