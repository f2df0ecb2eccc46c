/**
 * One session of the fake's HTTP server, driven over its control API as any language would: its own
 * pets, faults and request log, so that cases sharing one server share nothing else.
 *
 * @module
 */

/** A request as the control API's log lists it. */
export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly status?: number;
  readonly receivedAt: number;
}

/** A session's calls. */
export interface FakeSession {
  readonly id: string;
  /** Its control URL (`/__fake/sessions/<id>`). */
  readonly controlUrl: string;
  injectFault(fault: Record<string, unknown>): Promise<void>;
  requests(): Promise<LoggedRequest[]>;
  pets(): Promise<{ id: number; name: string }[]>;
  setPets(pets: readonly Record<string, unknown>[]): Promise<void>;
  end(): Promise<void>;
}

/** The control API takes bodies only as JSON. */
const JSON_BODY = { 'Content-Type': 'application/json' };

async function call(url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return response;
}

/** Creates a session on the server at `origin`. */
export async function createSession(origin: string): Promise<FakeSession> {
  const { id, controlUrl } = (await (await call(`${origin}/__fake/sessions`, { method: 'POST' })).json()) as {
    id: string;
    controlUrl: string;
  };
  return {
    id,
    controlUrl,
    async injectFault(fault) {
      await call(`${controlUrl}/faults`, { method: 'POST', headers: JSON_BODY, body: JSON.stringify(fault) });
    },
    async requests() {
      return (await (await call(`${controlUrl}/requests`)).json()) as LoggedRequest[];
    },
    async pets() {
      return (await (await call(`${controlUrl}/pets`)).json()) as { id: number; name: string }[];
    },
    async setPets(pets) {
      await call(`${controlUrl}/pets`, { method: 'PUT', headers: JSON_BODY, body: JSON.stringify(pets) });
    },
    async end() {
      await call(controlUrl, { method: 'DELETE' });
    },
  };
}

/** The log as one line: each request's method, path, status and arrival after the first, in ms. */
export function describeLog(requests: readonly LoggedRequest[]): string {
  const first = requests[0]?.receivedAt ?? 0;
  return requests
    .map(
      (request) =>
        `${request.method} ${request.path} ${request.status ?? '-'} @${request.receivedAt - first} ms`,
    )
    .join(', ');
}
