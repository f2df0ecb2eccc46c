/**
 * `@vercel/otel` with the instrumentation, as docs/observability.md sets it up on the 2.x line of
 * OpenTelemetry (its peers): the docs' install command beside the packed package, and the docs'
 * Next.js `instrumentation.ts` with `registerOTel` type-checked there.
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
}, 400_000);
