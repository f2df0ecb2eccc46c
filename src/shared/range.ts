/**
 * A number outside a range, as zod's `minimum` and `maximum` checks report it: the one rule of the
 * model's bounds and of the client's numeric options.
 *
 * @module
 */

/** The issue for `value` below `min` or above `max` (both allowed), or `undefined`. */
export function outOfRange(value: number, min: number, max: number) {
  const bound = { origin: 'number', inclusive: true, input: value } as const;
  if (value < min) return { code: 'too_small', minimum: min, ...bound } as const;
  if (value > max) return { code: 'too_big', maximum: max, ...bound } as const;
  return undefined;
}
