import { connect } from 'node:net';

/** What came back on a raw connection: the bytes as text, and whether the server closed it. */
export interface RawExchange {
  readonly text: string;
  readonly closedByServer: boolean;
  /** The HTTP status of the first response, if one arrived. */
  readonly status: number | undefined;
  /** The JSON body of the first response, if it had one. */
  readonly body: unknown;
}

/**
 * Opens a TCP connection to the server, lets `talk` write to it (all at once, in pieces, or half a
 * request and then nothing), and collects what comes back until the server closes the connection
 * or `waitMs` passes.
 */
export function rawExchange(
  port: number,
  talk: (write: (bytes: string | Buffer) => boolean) => void | Promise<void>,
  waitMs = 5_000,
): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    let closedByServer = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      const bodyText = text.split('\r\n\r\n')[1];
      let body: unknown;
      try {
        body = bodyText ? JSON.parse(bodyText) : undefined;
      } catch {
        body = bodyText;
      }
      resolve({ text, closedByServer, status: status === undefined ? undefined : Number(status), body });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => {
      closedByServer = true;
      finish();
    });
    // The server may close while the client is still writing: what it said before is what counts.
    socket.on('error', () => {
      closedByServer = true;
      finish();
    });
    socket.on('connect', () => {
      Promise.resolve(talk((bytes) => !socket.destroyed && socket.write(bytes))).catch(reject);
    });
  });
}

/** A request head, ending with the blank line. */
export function head(lines: readonly string[]): string {
  return `${lines.join('\r\n')}\r\n\r\n`;
}
