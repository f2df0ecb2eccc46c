/**
 * Sessions under churn: the `animal-store-fake-server` command creating, using and abandoning many
 * sessions (never ended by the client), held to its most sessions at once and ending idle ones, its
 * memory sampled along the way.
 *
 * @module
 */
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';
import { type ServerMemory, startCliServer } from './cli-server.js';

/** One memory sample, after `sessions` sessions. */
export interface SessionsSample extends ServerMemory {
  readonly sessions: number;
}

/** What the churn measured. */
export interface SessionsResult {
  readonly sessions: number;
  readonly maxSessions: number;
  readonly idleMs: number;
  readonly requestsPerSession: number;
  /** How many creations were refused 503 `too_many_sessions` (and retried once idle ones had ended). */
  readonly refused: number;
  readonly seconds: number;
  readonly samples: SessionsSample[];
}

const PETS = JSON.stringify(
  Array.from({ length: 50 }, (_, index) => ({ id: index + 1, name: `Pet ${index + 1}`, categoryId: 1 })),
);

/** Creates `sessions` sessions one after another, each seeded with 50 pets, used, then left idle. */
export async function runSessionChurn(
  sessions: number,
  maxSessions = 10,
  idleMs = 1_000,
  requestsPerSession = 20,
): Promise<SessionsResult> {
  const server = await startCliServer([
    ...['--plan', '1000000000/1000000000', '--seed', '10'],
    ...['--max-sessions', String(maxSessions), '--session-idle-timeout', String(idleMs)],
  ]);
  const origin = new URL(server.url).origin;
  const headers = { Authorization: `Bearer ${DEFAULT_API_KEY}`, 'Content-Type': 'application/json' };
  const samples: SessionsSample[] = [{ sessions: 0, ...(await server.memory()) }];
  const sampleEvery = Math.max(1, Math.floor(sessions / 10));
  let refused = 0;
  const started = performance.now();
  for (let created = 0; created < sessions; ) {
    const answer = await fetch(`${origin}/__fake/sessions`, { method: 'POST' });
    if (answer.status === 503) {
      refused++;
      await answer.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, idleMs / 4));
      continue;
    }
    const { baseUrl, controlUrl } = (await answer.json()) as { baseUrl: string; controlUrl: string };
    await (
      await fetch(`${controlUrl}/pets`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: PETS,
      })
    ).arrayBuffer();
    for (let i = 0; i < requestsPerSession; i++) {
      const response =
        i % 4 === 0
          ? await fetch(`${baseUrl}/pets`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ name: `New ${i}`, categoryId: 2 }),
            })
          : await fetch(`${baseUrl}/pets?limit=100`, { headers });
      await response.arrayBuffer();
    }
    created++;
    if (created % sampleEvery === 0) samples.push({ sessions: created, ...(await server.memory()) });
  }
  const seconds = (performance.now() - started) / 1000;
  const alive = server.alive();
  await server.stop();
  if (!alive) throw new Error('The server died during the session churn');
  return { sessions, maxSessions, idleMs, requestsPerSession, refused, seconds, samples };
}
