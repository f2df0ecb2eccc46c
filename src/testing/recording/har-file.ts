/**
 * Writing a recording to disk: streamed, so no body is too large to write, into a new file only the
 * owner can read, created beside the target without following any link, then renamed into place.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Har } from './har.js';

/** Strings longer than this are escaped a slice at a time: one `JSON.stringify` may not fit in a string. */
const SLICE = 1 << 20;

/** How much text is gathered before each write. */
const WRITE_SIZE = 1 << 20;

/** `value` as indented JSON, in pieces. */
function* jsonPieces(value: unknown, indent: string): Generator<string> {
  if (typeof value === 'string') {
    if (value.length <= SLICE) {
      yield JSON.stringify(value);
      return;
    }
    yield '"';
    for (let at = 0; at < value.length; at += SLICE)
      yield JSON.stringify(value.slice(at, at + SLICE)).slice(1, -1);
    yield '"';
    return;
  }
  if (typeof value !== 'object' || value === null) {
    yield JSON.stringify(value) ?? 'null';
    return;
  }
  const inner = `${indent}  `;
  const items: [string | undefined, unknown][] = Array.isArray(value)
    ? value.map((item) => [undefined, item])
    : Object.entries(value).filter(([, item]) => item !== undefined);
  if (items.length === 0) {
    yield Array.isArray(value) ? '[]' : '{}';
    return;
  }
  yield Array.isArray(value) ? '[\n' : '{\n';
  for (const [index, [name, item]] of items.entries()) {
    yield name === undefined ? inner : `${inner}${JSON.stringify(name)}: `;
    yield* jsonPieces(item, inner);
    yield index < items.length - 1 ? ',\n' : '\n';
  }
  yield `${indent}${Array.isArray(value) ? ']' : '}'}`;
}

/**
 * Writes `har` to `file` as indented JSON. It goes first to a new file beside it (created exclusively,
 * mode 0600, so a planted file or link there is never written through), then is renamed over `file`:
 * a reader never sees half a recording.
 */
export async function writeHarFile(file: string, har: Har): Promise<void> {
  const partial = join(dirname(file), `.${basename(file)}.${randomUUID()}.partial`);
  const handle = await open(partial, 'wx', 0o600);
  try {
    let pending = '';
    for (const piece of jsonPieces(har, '')) {
      pending += piece;
      if (pending.length >= WRITE_SIZE) {
        await handle.write(pending);
        pending = '';
      }
    }
    await handle.write(`${pending}\n`);
    await handle.close();
    await rename(partial, file);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(partial, { force: true });
    throw error;
  }
}
