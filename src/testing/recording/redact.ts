/**
 * Keeping API keys out of what the fake writes down: every occurrence of a secret replaced.
 *
 * @module
 */

/** What a secret is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * A function that replaces every occurrence of every secret in a text with {@link REDACTED}, the
 * longest first so that a secret inside another does not leave part of the longer one behind. The
 * URL-encoded form of each is replaced too, as a key may appear in a query.
 */
export function redactor(secrets: Iterable<string>): (text: string) => string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret === '') continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
  }
  const ordered = [...forms].sort((a, b) => b.length - a.length);
  return (text) => ordered.reduce((redacted, secret) => redacted.replaceAll(secret, REDACTED), text);
}
