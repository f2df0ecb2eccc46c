/**
 * The model's object schemas in the browser build: plain zod/mini objects with the SDK's messages.
 * A page parses a few responses, where a server parses many: the compiled parser of the server
 * build (object-schema.ts) would make it faster by microseconds, and the bundle heavier by a kilobyte.
 *
 * @module
 */
import * as z from 'zod/mini';
import type * as core from 'zod/v4/core';
import { SDK_MESSAGES } from './issue-message.js';

/** `z.object(shape)` with the SDK's messages. */
export function object<T extends core.$ZodLooseShape>(shape: T): z.ZodMiniObject<T, core.$strip> {
  return z.object(shape, SDK_MESSAGES);
}

/** `z.strictObject(shape)` with the SDK's messages: unknown keys are refused. */
export function strictObject<T extends core.$ZodLooseShape>(shape: T): z.ZodMiniObject<T, core.$strict> {
  return z.strictObject(shape, SDK_MESSAGES);
}
