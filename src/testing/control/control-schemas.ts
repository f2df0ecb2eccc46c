/**
 * The bodies the control API takes, as zod schemas: the shapes and types of its JSON, checked once
 * here. The ranges (a status from 200 to 599, a rate from 0 to 1, ...) are the store's own checks,
 * which the control API calls as `injectFault` and `injectChaos` do in process.
 *
 * @module
 */
import * as z from 'zod';
import { PetListSchema } from '../../schemas.js';
import { AFTER_OPERATION_FAULTS } from '../disruptions/after-operation.js';

/** `PUT /__fake/pets`: the animals, each a Pet. */
export const PetsBodySchema = PetListSchema;

const stringRecord = z.record(z.string(), z.string());

const matchShape = {
  method: z.string().exactOptional(),
  /** A path or a pattern with `{name}` segments: JSON carries no RegExp. */
  path: z.string().exactOptional(),
  query: stringRecord.exactOptional(),
  headers: stringRecord.exactOptional(),
  body: z.json().exactOptional(),
};

/** `POST /__fake/faults`: a fault as `injectFault` takes it, `times` given as a number or `"Infinity"`. */
export const FaultBodySchema = z.strictObject({
  status: z.number().exactOptional(),
  headers: stringRecord.exactOptional(),
  body: z.json().exactOptional(),
  delay: z.number().exactOptional(),
  networkError: z.boolean().exactOptional(),
  // The drip's range is the store's own check.
  afterOperation: z.enum(AFTER_OPERATION_FAULTS).exactOptional(),
  dripInterval: z.number().exactOptional(),
  // JSON has no Infinity: JSON.stringify writes it as null, which would read as a mistake.
  times: z
    .union([z.number(), z.literal('Infinity')])
    .transform((times) => (times === 'Infinity' ? Number.POSITIVE_INFINITY : times))
    .exactOptional(),
  match: z.strictObject({ ...matchShape, nth: z.number().exactOptional() }).exactOptional(),
});

/** `POST /__fake/chaos`: chaos as `injectChaos` takes it. */
export const ChaosBodySchema = z.strictObject({
  seed: z.number(),
  rate: z.number(),
  faults: z
    .array(z.union([z.number(), z.literal('network-error'), z.enum(AFTER_OPERATION_FAULTS)]))
    .exactOptional(),
  delay: z
    .strictObject({ rate: z.number(), min: z.number().exactOptional(), max: z.number() })
    .exactOptional(),
  match: z.strictObject(matchShape).exactOptional(),
});

/** `POST /__fake/clock`: how far to move the store's clock. */
export const ClockBodySchema = z.strictObject({ advanceMs: z.number() });
