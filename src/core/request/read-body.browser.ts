/**
 * Reading a response's body as text within `maxResponseBytes`, in a browser: every body is counted
 * as it arrives, since a browser hides a cross-origin response's `Content-Encoding`, so its
 * declared length cannot vouch for its decompressed size.
 *
 * @module
 */
export { readStream as readBody } from './read-stream.js';
