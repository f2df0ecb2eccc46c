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
 * zod/mini's objects check field by field, where classic zod's compile a parser for their shape,
 * several times faster on a page of pets (the bench's parse section shows both). On a server that
 * is time every call pays, so the model's objects are zod/mini objects parsed by that compiled
 * parser, zod's own `$ZodObjectJIT` from zod/v4/core: they compose like any zod/mini object and
 * parse as fast as classic zod's. Where code may not be compiled, zod parses them field by field.
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
