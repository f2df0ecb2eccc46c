/**
 * The model's object schemas in the browser build: plain zod/mini objects, since a page parses few
 * responses, and the server build's compiled parser weighs a kilobyte.
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
