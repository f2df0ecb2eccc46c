/**
 * Reading a request body within the fake store's limits: its size, its encoding and, for JSON, how
 * deeply it nests.
 *
 * @module
 */
import { ERROR_CODES, errorReply, type JsonReply } from './responses.js';

/**
 * The largest request body the fake store reads by default, in bytes (1 MiB). A larger body is
 * answered 413 `payload_too_large` without being read.
 */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/**
 * The 413 for a body over `limit` bytes, whichever adapter found it too large: the store reading it,
 * or the HTTP server from its `Content-Length` or the bytes it counted.
 */
export function payloadTooLarge(limit: number): JsonReply {
  return errorReply(
    413,
    ERROR_CODES.payloadTooLarge,
    `The request body is larger than ${limit} bytes, the most this server reads`,
  );
}

/**
 * How deeply a JSON body may nest (objects and arrays) before the store refuses it.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * A body as the store read it: its text (invalid UTF-8 replaced by U+FFFD) and whether it was valid
 * UTF-8, `cut` when only its start was kept, or `tooLarge` when it was over the limit and reading stopped.
 */
export type BodyRead =
  | { readonly tooLarge: false; readonly text: string; readonly utf8: boolean; readonly cut?: true }
  | { readonly tooLarge: true };

const strict = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');

/**
 * The body's text from its bytes.
 */
export function decodeBody(bytes: Uint8Array): BodyRead {
  try {
    return { tooLarge: false, text: strict.decode(bytes), utf8: true };
  } catch {
    return { tooLarge: false, text: lenient.decode(bytes), utf8: false };
  }
}

/**
 * Whether a `Content-Length` header announces more than `limit` bytes.
 */
export function announcesMoreThan(headers: Headers, limit: number): boolean {
  const length = headers.get('content-length');
  return length !== null && /^\d+$/.test(length.trim()) && Number(length) > limit;
}

/**
 * Reads a web `Request`'s body, stopping (and cancelling the stream) as soon as it is known to be
 * over `limit` bytes: by its `Content-Length`, or by counting what arrives. Only the first `keep`
 * bytes are kept: the rest is counted and let go.
 */
export async function readBody(
  request: Request,
  limit: number,
  keep = Number.POSITIVE_INFINITY,
): Promise<BodyRead> {
  if (request.body === null) return { tooLarge: false, text: '', utf8: true };
  if (announcesMoreThan(request.headers, limit)) {
    // Not awaited: a stream msw hands over may settle its cancellation only once the answer is sent.
    request.body.cancel().catch(() => {});
    return { tooLarge: true };
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const kept = Math.max(0, Math.min(value.byteLength, keep - size));
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      return { tooLarge: true };
    }
    if (kept > 0) chunks.push(value.subarray(0, kept));
  }
  const bytes = new Uint8Array(Math.min(size, keep));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const read = decodeBody(bytes);
  return size > keep && !read.tooLarge ? { ...read, cut: true } : read;
}

/**
 * Whether JSON text nests objects and arrays deeper than `max`, found by scanning the text (strings
 * skipped) rather than parsing it, so a hostile body costs one pass and no recursion.
 */
export function exceedsJsonDepth(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
