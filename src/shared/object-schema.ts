/**
 * The model's object schemas: zod/mini objects, with the SDK's messages, parsed by zod's compiled
 * object parser. This is the build for servers (Node, Bun, Deno); browsers get object-schema.browser.ts.
 *
 * @module
 */
import * as z from 'zod/mini';
import * as core from 'zod/v4/core';
import { SDK_MESSAGES } from './issue-message.js';

/**
 * zod/mini objects parsed by classic zod's compiled parser (`$ZodObjectJIT`), several times faster
 * on a page of pets; where code may not be compiled, zod parses field by field.
 */
const compiledParser: core.$constructor<core.$ZodObject> = core.$ZodObjectJIT;
const miniObject: core.$constructor<z.ZodMiniObject> = z.ZodMiniObject;
const CompiledObject: core.$constructor<z.ZodMiniObject> = core.$constructor(
  'AnimalStoreObject',
  (inst, def) => {
    compiledParser.init(inst, def);
    miniObject.init(inst, def);
  },
);

/** `z.object(shape)` with the SDK's messages. */
export function object<T extends core.$ZodLooseShape>(shape: T): z.ZodMiniObject<T, core.$strip> {
  return new CompiledObject({ type: 'object', shape, ...SDK_MESSAGES }) as z.ZodMiniObject<T, core.$strip>;
}

/** `z.strictObject(shape)` with the SDK's messages: unknown keys are refused. */
export function strictObject<T extends core.$ZodLooseShape>(shape: T): z.ZodMiniObject<T, core.$strict> {
  const def = { type: 'object', shape, catchall: z.never(), ...SDK_MESSAGES } as const;
  return new CompiledObject(def) as z.ZodMiniObject<T, core.$strict>;
}
