/**
 * A Lua script with its SHA-1, as EVALSHA names it.
 *
 * @module
 */
import { createHash } from 'node:crypto';

/** A script's source and the digest Redis knows it by once loaded. */
export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

export function luaScript(source: string): LuaScript {
  const trimmed = source.trim();
  return { source: trimmed, sha: createHash('sha1').update(trimmed).digest('hex') };
}
