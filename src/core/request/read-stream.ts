/**
 * Reading a response's body as text, counting its bytes as they arrive (after the decompression
 * fetch does), so that a body past the limit is never held whole.
 *
 * @module
 */

/**
 * The body's text, decoded as `response.text()` decodes it (UTF-8, a bad byte as U+FFFD), or
 * `undefined` once it passes `limit` bytes: then the rest is cancelled unread.
 */
export async function readStream(response: Response, limit: number): Promise<string | undefined> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (let bytes = 0; ; ) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > limit) {
      await reader.cancel();
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}
