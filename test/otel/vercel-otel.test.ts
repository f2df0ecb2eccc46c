/**
 * `@vercel/otel` with the instrumentation, as docs/observability.md sets it up on the 2.x line of
 * OpenTelemetry (its peers): the docs' install command beside the packed package, and the docs'
 * Next.js `instrumentation.ts` with `registerOTel` type-checked there, with bundler resolution as a
 * Next.js project has it; under nodenext @vercel/otel's own declarations fail, as the docs say.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { PINNED_NODE, REPO_ROOT, TSC } from '../package/support/repo.js';
import { run } from '../package/support/run.js';
import { installedProject } from '../support/installed-project.js';
import { block, installedPackages, tsconfig } from './support/docs-setup.js';

it('installs as the docs say, with api 1.9, and the docs’ registerOTel setup type-checks', async () => {
  const markdown = await readFile(join(REPO_ROOT, 'docs/observability.md'), 'utf8');
  const { directory } = await installedProject({
    name: 'animal-store-otel-vercel',
    packages: installedPackages(markdown, '@vercel/otel@'),
    refresh: async (project) => {
      await writeFile(
        join(project, 'instrumentation.ts'),
        block(markdown, 'ts instrumentation.ts (@vercel/otel)'),
      );
      await writeFile(join(project, 'tsconfig.json'), tsconfig(['instrumentation.ts']));
    },
  });
  const api = JSON.parse(
    await readFile(join(directory, 'node_modules/@opentelemetry/api/package.json'), 'utf8'),
  ) as { version: string };
  expect(api.version).toMatch(/^1\.9\./);
  await run(TSC, ['-p', 'tsconfig.json'], { cwd: directory, node: PINNED_NODE });

  // What the docs say of nodenext: @vercel/otel's declarations import their neighbours without an extension.
  const nodenext = JSON.parse(tsconfig(['instrumentation.ts'])) as { compilerOptions: object };
  Object.assign(nodenext.compilerOptions, {
    module: 'nodenext',
    moduleResolution: 'nodenext',
    skipLibCheck: false,
  });
  await writeFile(join(directory, 'tsconfig.nodenext.json'), JSON.stringify(nodenext));
  const failed = await run(TSC, ['-p', 'tsconfig.nodenext.json'], { cwd: directory, node: PINNED_NODE }).then(
    () => '',
    (error: Error) => error.message,
  );
  expect(failed).toMatch(/@vercel\/otel\/dist\/types\/index\.d\.ts.*TS2834/);
}, 400_000);
