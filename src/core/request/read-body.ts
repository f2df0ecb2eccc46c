/**
 * Reading a response's body as text within `maxResponseBytes`.
 *
 * @module
 */
import { readStream } from './read-stream.js';

/**
 * The body's text, or `undefined` past `limit` bytes. A body whose declared length is within the
 * limit and which fetch does not decompress is read by fetch in one go, cheaper than a reader; a
 * body cut short fails either way.
 */
export function readBody(response: Response, limit: number): Promise<string | undefined> {
  const length = response.headers.get('content-length');
  if (length !== null && Number(length) <= limit && !response.headers.has('content-encoding')) {
    return response.text();
  }
  return readStream(response, limit);
}
