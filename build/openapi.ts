/**
 * Runs after tsup: writes the OpenAPI description, generated from the model's zod schemas, to
 * dist/openapi.json (the package's `animal-store-sdk/openapi.json`).
 */
import { writeFile } from 'node:fs/promises';
import { petStoreOpenApi } from '../src/testing/contract/openapi.js';

const target = new URL('../dist/openapi.json', import.meta.url);
await writeFile(target, `${JSON.stringify(petStoreOpenApi(), null, 2)}\n`);
console.log('OpenAPI description written to dist/openapi.json');
