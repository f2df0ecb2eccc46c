import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { expect, it } from 'vitest';
import { browserVariants } from '../../tsup.config.js';

const ERROR_CLASSES = [
  'PetStoreError',
  'APIError',
  'BadRequestError',
  'AuthenticationError',
  'PermissionDeniedError',
  'NotFoundError',
  'ConflictError',
  'UnprocessableEntityError',
  'RateLimitError',
  'InternalServerError',
  'APIConnectionError',
  'APIConnectionTimeoutError',
  'APIUserAbortError',
  'RequestValidationError',
  'ResponseValidationError',
  'ResponseTooLargeError',
  'RefusedError',
  'RedirectError',
] as const;

type ErrorClass = new (...args: unknown[]) => Error;

it('keeps every error’s name in a minified production bundle, where the class names are mangled', async () => {
  const { outputFiles } = await esbuild.build({
    stdin: {
      contents: `export { ${ERROR_CLASSES.join(', ')} } from './src/index.ts';`,
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    plugins: [browserVariants],
  });
  const directory = await mkdtemp(join(tmpdir(), 'error-names-'));
  try {
    const file = join(directory, 'bundle.mjs');
    await writeFile(file, outputFiles[0]?.text ?? '');
    const bundle = (await import(pathToFileURL(file).href)) as Record<string, ErrorClass>;
    const init = {
      status: 500,
      headers: new Headers(),
      body: undefined,
      rateLimit: null,
      retryAfterMs: null,
    };
    const APIError = bundle.APIError as ErrorClass;
    for (const exported of ERROR_CLASSES) {
      const ErrorClass = bundle[exported] as ErrorClass;
      // The classes constructed from a response take its status, headers and body.
      const error =
        ErrorClass === APIError || ErrorClass.prototype instanceof APIError
          ? new ErrorClass(init)
          : new ErrorClass('message', [], undefined);
      expect(error.name).toBe(exported);
      expect(ErrorClass.name).not.toBe(exported);
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
});
