/**
 * The known name an unknown one most likely meant: other SDKs' spellings (`baseURL`, `maxRetry`) and
 * slips within a few edits (`timoeut`).
 *
 * @module
 */

/** Other SDKs' names for an option, where the spelling is too far from ours for the distance to find. */
const ALIASES: Record<string, string> = {
  auth: 'apiKey',
  maxretry: 'maxRetries',
  retry: 'maxRetries',
  token: 'apiKey',
};

/** A name as compared: case and separators aside (`baseURL`, `base_url` and `baseUrl` are one). */
const plain = (name: string) => name.toLowerCase().replace(/[-_]/g, '');

/** Levenshtein's edit distance, one row at a time. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = i - 1;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

/** The known name `name` most likely meant (`maxRetry`: `maxRetries`), or `undefined` when none is close. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const given = plain(name);
  const alias = ALIASES[given];
  if (alias && known.includes(alias)) return alias;
  let closest: string | undefined;
  // Close: at most 2 edits apart, or a third of the name's length for a long one.
  let best = Math.max(2, given.length / 3) + 1;
  for (const candidate of known) {
    const other = plain(candidate);
    // One name inside the other (`host` in `hostname`, `token` in `controlToken`) counts as one edit.
    const inside =
      Math.min(given.length, other.length) >= 4 && (other.includes(given) || given.includes(other));
    const apart = inside ? 1 : distance(given, other);
    if (apart < best) [closest, best] = [candidate, apart];
  }
  return closest;
}
