/**
 * The fake Animal Store as a real HTTP server (node:http, so Node, Bun and Deno), with CORS so browser code can call it.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { isLoopback } from '../control/control-access.js';
import { addFakeOrigins } from '../msw/fake-origins.js';
import { isPreflight } from '../rules/cors.js';
import { announcesMoreThan } from '../rules/request-body.js';
import { ERROR_CODES } from '../rules/responses.js';
import type { ListenOptions, RunningFakeServer, StoreCore } from '../store/store-core.js';
import { createServerApp, type ServerApp } from './server-app.js';

/** The longest request target (path and query) the server reads, in characters. */
const MAX_URL_LENGTH = 8192;

/**
 * How long a connection refused mid-request stays open, unread, after its answer: closing it at once
 * with unread bytes would reset it, and a client still sending could lose the answer.
 */
const LINGER_MS = 1_000;

/** Sends what is queued, half-closes, stops reading, and destroys the socket after {@link LINGER_MS}. */
function closeAfterAnswer(socket: Duplex): void {
  socket.pause();
  socket.end();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** The time a client has to send a whole request, by default. */
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * Starts an HTTP server answering with the store. It serves the store's base path (e.g. `/v1`) on
 * whatever host name the client used, and its control API and sessions (server-app.ts); CORS
 * preflights are answered here, before the store, and are not recorded.
 */
export async function listenHttp(core: StoreCore, options: ListenOptions): Promise<RunningFakeServer> {
  const hostname = options.hostname ?? '127.0.0.1';
  const app = createServerApp(core, options);
  const closing = new AbortController();
  // Node's closeIdleConnections() leaves alone a connection that has not sent a request yet (which a
  // client may open ahead of time), so close() tracks which sockets are busy and destroys the others.
  const sockets = new Set<Socket>();
  const busy = new Set<Socket>();

  const requestTimeout = options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT_MS;
  if (!Number.isSafeInteger(requestTimeout) || requestTimeout < 1) {
    throw new RangeError(`requestTimeout must be a positive integer, got ${String(requestTimeout)}`);
  }
  // Node enforces the timeouts itself, checking open connections every `connectionsCheckingInterval`.
  const timeouts = {
    requestTimeout,
    headersTimeout: requestTimeout,
    connectionsCheckingInterval: Math.min(1_000, requestTimeout),
  };
  const server = createServer(timeouts, (req, res) => {
    busy.add(req.socket);
    res.once('close', () => busy.delete(req.socket));
    handle(app, core, req, res, closing.signal).catch((error: unknown) => {
      // A socket already answered (a timeout, say) is closing on its own; cutting it would lose the answer.
      if (req.socket.writableEnded) return;
      // The client went away, or the server is closing: there is no one to answer, or no time to.
      if (closing.signal.aborted || req.destroyed || res.headersSent || !req.socket.writable) {
        req.socket.destroy();
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      sendError(
        req,
        res,
        app.corsHeaders(pathOf(req), requestHeaders(req)),
        500,
        ERROR_CODES.internalError,
        `The fake Animal Store failed while answering: ${message}`,
      );
    });
  });
  server.on('clientError', answerClientError);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      busy.delete(socket);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const { port } = server.address() as AddressInfo;
  const origin = `http://${urlHost(hostname)}:${port}`;
  const loopbackNames = isLoopback(urlHost(hostname)) ? ['127.0.0.1', 'localhost', '[::1]'] : [];
  const unlist = addFakeOrigins([origin, ...loopbackNames.map((name) => `http://${name}:${port}`)]);
  return {
    url: `${origin}${core.base.path}`,
    port,
    controlUrl: app.controlPath === undefined ? undefined : `${origin}${app.controlPath}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        unlist();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        closing.abort(new Error('The fake server is closing'));
        server.closeIdleConnections();
        for (const socket of sockets) if (!busy.has(socket)) socket.destroy();
      }),
  };
}

async function handle(
  app: ServerApp,
  core: StoreCore,
  req: IncomingMessage,
  res: ServerResponse,
  closing: AbortSignal,
): Promise<void> {
  const method = req.method ?? 'GET';
  const host = req.headers.host ?? 'localhost';
  const headers = requestHeaders(req);
  if ((req.url ?? '/').length > MAX_URL_LENGTH) {
    sendError(
      req,
      res,
      app.corsHeaders(pathOf(req), headers),
      414,
      ERROR_CODES.uriTooLong,
      `The request target is longer than ${MAX_URL_LENGTH} characters`,
    );
    return;
  }
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `http://${host}`);
  } catch {
    sendError(
      req,
      res,
      app.corsHeaders(pathOf(req), headers),
      400,
      ERROR_CODES.badRequest,
      'The request target or Host header is not a valid URL',
    );
    return;
  }

  if (isPreflight(method, headers)) {
    req.resume();
    const answer = app.preflight(url.pathname, headers, `http://${host}`);
    const payload = Buffer.from(await answer.arrayBuffer());
    const answerHeaders = Object.fromEntries(answer.headers);
    if (payload.length > 0) answerHeaders['content-length'] = String(payload.length);
    res.writeHead(answer.status, answerHeaders).end(payload);
    return;
  }

  const aborted = new AbortController();
  const abort = () => aborted.abort(new DOMException('The client closed the connection', 'AbortError'));
  res.once('close', () => {
    if (!res.writableFinished) abort();
  });
  closing.addEventListener('abort', abort, { once: true });

  try {
    const limit = core.maxBodyBytes;
    const body =
      method === 'GET' || method === 'HEAD' || announcesMoreThan(headers, limit)
        ? undefined
        : await readIncomingBody(req, limit);
    const oversized = body === 'too-large' || announcesMoreThan(headers, limit);
    const request = new Request(url, {
      method,
      headers,
      signal: aborted.signal,
      ...(body === undefined || body === 'too-large' ? {} : { body }),
    });
    const outcome = await app.respond(request, `http://${host}`, oversized);
    if (outcome.kind === 'network-error') {
      req.socket.destroy();
      return;
    }
    const { response } = outcome;
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(app.corsHeaders(url.pathname, headers))) {
      responseHeaders[name.toLowerCase()] = value;
    }
    for (const [name, value] of response.headers) responseHeaders[name] = value;
    // Node would stamp the real time; the store's clock is what its rate-limit headers are relative to.
    responseHeaders.date ??= new Date(core.now()).toUTCString();
    if (outcome.bodyLength !== undefined) {
      await sendSpoiledBody(req, res, response, responseHeaders);
      return;
    }
    const payload = Buffer.from(await response.arrayBuffer());
    responseHeaders['content-length'] = String(payload.length);
    // The rest of an oversized body is not read: the connection closes after the answer.
    if (closing.aborted || oversized) responseHeaders.connection = 'close';
    if (oversized) lingerOnClose(req.socket);
    res.writeHead(response.status, responseHeaders);
    res.end(method === 'HEAD' ? undefined : payload);
  } finally {
    closing.removeEventListener('abort', abort);
  }
}

/**
 * Sends the headers at once, then the body as a fault's stream gives it (part of it, slowly, or
 * nothing), under the full `Content-Length`; when the stream fails the socket is destroyed, so the
 * client sees a connection reset part way through the body.
 */
async function sendSpoiledBody(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  headers: Record<string, string>,
): Promise<void> {
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const reader = response.body?.getReader();
  // A write to a socket the client closed never calls back: the close ends the loop instead.
  const closed = new Promise<'closed'>((resolve) => res.once('close', () => resolve('closed')));
  try {
    for (;;) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) break;
      // Handed to the socket before the next read, so a reset after it does not discard it.
      const written = new Promise<void>((resolve) => res.write(chunk.value, () => resolve()));
      if ((await Promise.race([written, closed])) === 'closed') {
        await reader?.cancel();
        return;
      }
    }
    res.end();
  } catch {
    req.socket.destroy();
  }
}

/**
 * Reads the body, counting bytes as they arrive, and stops reading the socket as soon as it passes
 * `limit` (`'too-large'`). Listeners rather than `for await`, which would destroy the socket on the
 * way out and lose the 413.
 */
function readIncomingBody(
  req: IncomingMessage,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      done();
      req.pause();
      resolve('too-large');
    };
    const onEnd = () => {
      done();
      resolve(new Uint8Array(Buffer.concat(chunks)));
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    const onClose = () => onError(new Error('The client closed the connection before the body ended'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** Answers with an Error body and closes the connection, leaving the rest of the request unread. */
function sendError(
  req: IncomingMessage,
  res: ServerResponse,
  corsHeaders: Record<string, string>,
  status: number,
  code: string,
  message: string,
): void {
  const payload = JSON.stringify({ code, message, status });
  res.writeHead(status, {
    ...corsHeaders,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(payload)),
    connection: 'close',
  });
  lingerOnClose(req.socket);
  res.end(payload);
}

/** Makes Node's close after a `Connection: close` answer linger (see {@link closeAfterAnswer}). */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => closeAfterAnswer(socket);
}

/**
 * Answers what Node's HTTP parser refused, or a request that did not arrive in full in time, with
 * an Error body, then closes the connection. Node's default answer carries no body.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const inProgress = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (!socket.writable || inProgress === true || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, ERROR_CODES.headersTooLarge, 'The request line and headers are larger than 16 KiB']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, ERROR_CODES.requestTimeout, 'The request did not arrive in full in time']
        : [400, ERROR_CODES.badRequest, 'The bytes received are not a valid HTTP/1.1 request'];
  const payload = JSON.stringify({ code, message, status });
  socket.write(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(payload)}\r\nconnection: close\r\n\r\n${payload}`,
  );
  closeAfterAnswer(socket);
}

/** The path of the request target, whatever its Host says; the control API's when it cannot be read. */
function pathOf(req: IncomingMessage): string {
  const target = req.url ?? '/';
  return URL.canParse(target, 'http://fake.invalid')
    ? new URL(target, 'http://fake.invalid').pathname
    : '/__fake';
}

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i];
    const value = req.rawHeaders[i + 1];
    if (name !== undefined && value !== undefined) headers.append(name, value);
  }
  return headers;
}

function urlHost(hostname: string): string {
  if (hostname === '0.0.0.0') return '127.0.0.1';
  if (hostname === '::') return '[::1]';
  return hostname.includes(':') ? `[${hostname}]` : hostname;
}
