/**
 * A forward HTTP proxy on loopback that records what passes through it, and sends everything on to
 * one upstream server whatever its host, so the tests need no DNS and a request that skipped the
 * proxy could not have reached anything. It takes both ways clients use a proxy for plain HTTP: a
 * request in absolute form (`GET http://animal-store.test/v1/pets`: Bun, Deno) and a `CONNECT`
 * tunnel (Node's and undici's proxy agents tunnel every request), inside which it reads the
 * requests as a server would. A tunnel to port 443 carries TLS, which the proxy cannot read: it
 * records the `CONNECT` alone and passes the bytes to the TLS upstream, as a real proxy would.
 *
 * @module
 */
import { createServer, request as forward } from 'node:http';
import { type AddressInfo, connect } from 'node:net';

/** One request the proxy passed on; for an HTTPS tunnel, the `CONNECT` that opened it. */
export interface ProxiedRequest {
  readonly method: string;
  /** The absolute URL the client asked the proxy for (`host:443` for a tunnel). */
  readonly url: string;
  readonly authorization: string | undefined;
  readonly status: number;
}

export interface RecordingProxy {
  readonly url: string;
  readonly requests: ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * Starts a proxy that sends everything to `upstream` (an `http://host:port` origin), and the bytes of
 * a tunnel to port 443 to `tlsUpstream` (a loopback port serving TLS), when given.
 */
export async function startRecordingProxy(upstream: string, tlsUpstream?: number): Promise<RecordingProxy> {
  const target = new URL(upstream);
  const requests: ProxiedRequest[] = [];
  const server = createServer((req, res) => {
    // In a tunnel the request is in origin form (`/v1/pets`) and the Host header names the service.
    const asked = /^https?:\/\//.test(req.url ?? '')
      ? (req.url ?? '')
      : `http://${req.headers.host}${req.url}`;
    const url = new URL(asked);
    const outgoing = forward(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers: { ...req.headers, host: url.host },
      },
      (upstreamResponse) => {
        requests.push({
          method: req.method ?? 'GET',
          url: asked,
          authorization: req.headers.authorization,
          status: upstreamResponse.statusCode ?? 0,
        });
        res.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
        upstreamResponse.pipe(res);
      },
    );
    outgoing.on('error', () => res.writeHead(502).end());
    req.pipe(outgoing);
  });
  // A tunnel carries plain HTTP here: the proxy opens it, then serves what comes through it itself.
  server.on('connect', (req, socket, head) => {
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (tlsUpstream !== undefined && req.url?.endsWith(':443')) {
      requests.push({
        method: 'CONNECT',
        url: req.url,
        authorization: req.headers.authorization,
        status: 200,
      });
      const tunnel = connect(tlsUpstream, '127.0.0.1');
      if (head.length > 0) tunnel.write(head);
      socket.pipe(tunnel).pipe(socket);
      tunnel.on('error', () => socket.destroy());
      socket.on('error', () => tunnel.destroy());
      return;
    }
    if (head.length > 0) socket.unshift(head);
    server.emit('connection', socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
