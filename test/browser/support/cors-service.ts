/**
 * Global setup of the browser project: a service on another origin than the test page, whose CORS
 * rules are those of a real deployment that forgot something. Its every answer is a 429 with
 * `Retry-After` and `X-RateLimit-*`, or under a `-ok` path a 200 with an empty list and
 * `X-RateLimit-*`; under `/hidden/v1` and `/hidden-ok/v1` they are not exposed to the page, under
 * `/exposed/v1` and `/exposed-ok/v1` they are. Preflights allow `Authorization` and `Content-Type` only.
 * Under `/redirect/v1` every answer is a 302 to the same path under `/exposed-ok/v1`.
 *
 * @module
 */
import { createServer } from 'node:http';
import type { TestProject } from 'vitest/node';
import { listenOnLoopback } from '../../bundle/support/page-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The origin of the service, e.g. `http://127.0.0.1:41234`. */
    corsService: string;
  }
}

/** The headers the exposing deployment lets the page read. */
const EXPOSED = 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset';

export default async function startCorsService(project: TestProject): Promise<() => Promise<void>> {
  const server = createServer((request, response) => {
    const cors = { 'Access-Control-Allow-Origin': '*' };
    if (request.method === 'OPTIONS') {
      response
        .writeHead(204, {
          ...cors,
          'Access-Control-Allow-Methods': 'GET, POST',
          'Access-Control-Allow-Headers': 'Authorization, Content-Type',
          'Access-Control-Max-Age': '0',
        })
        .end();
      return;
    }
    if (request.url?.startsWith('/redirect/v1/')) {
      response.writeHead(302, { ...cors, Location: request.url.replace('/redirect/', '/exposed-ok/') }).end();
      return;
    }
    const exposed = request.url?.startsWith('/exposed') === true;
    const ok = /^\/\w+-ok\//.test(request.url ?? '');
    const rateLimit = {
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': ok ? '59' : '0',
      'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + (ok ? 60 : 3)),
    };
    response
      .writeHead(ok ? 200 : 429, {
        ...cors,
        ...(exposed && { 'Access-Control-Expose-Headers': EXPOSED }),
        'Content-Type': 'application/json',
        ...(!ok && { 'Retry-After': '3' }),
        ...rateLimit,
      })
      .end(ok ? '[]' : JSON.stringify({ code: 'rate_limited', message: 'Too many requests', status: 429 }));
  });
  const service = await listenOnLoopback(server);
  project.provide('corsService', service.origin);
  return () => service.close();
}
