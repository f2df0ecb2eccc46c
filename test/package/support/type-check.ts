/**
 * Type-checks the typed consumer in the consumer project with the repository's `tsc`, under the
 * module settings applications use.
 *
 * @module
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TYPED_CONSUMER_SOURCE } from '../fixtures/typed-consumer.js';
import { PINNED_NODE, TSC } from './repo.js';
import { type RunOutput, run } from './run.js';

/** One way an application resolves modules, and the files it checks that way. */
export interface ResolutionSetup {
  readonly module: 'node16' | 'nodenext' | 'esnext' | 'preserve';
  readonly moduleResolution: 'node16' | 'nodenext' | 'bundler';
  /** Under nodenext the `.mts` file resolves the `import` conditions and the `.cts` file `require`. */
  readonly files: readonly string[];
}

/** The setups the package's types must work under. */
export const RESOLUTION_SETUPS: readonly ResolutionSetup[] = [
  { module: 'nodenext', moduleResolution: 'nodenext', files: ['typed-consumer.mts', 'typed-consumer.cts'] },
  // node16 does not let CommonJS require an ES module (msw 3), not even for its types.
  { module: 'node16', moduleResolution: 'node16', files: ['typed-consumer.cts'] },
  { module: 'esnext', moduleResolution: 'bundler', files: ['typed-consumer.ts'] },
  { module: 'preserve', moduleResolution: 'bundler', files: ['typed-consumer.ts'] },
];

/**
 * The compiler options of a strict application that checks the package's declarations too, as an
 * application that sets nothing checks them (`skipLibCheck: false`).
 */
export const STRICT_APPLICATION_OPTIONS = {
  target: 'es2022',
  types: [],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
  noEmit: true,
} as const;

function configName(setup: ResolutionSetup): string {
  return `tsconfig.${setup.module}-${setup.moduleResolution}.json`;
}

/** Writes the typed consumer's files and one tsconfig per setup into the project. */
export async function writeTypedConsumer(project: string): Promise<void> {
  const files = new Set(RESOLUTION_SETUPS.flatMap((setup) => setup.files));
  await Promise.all([...files].map((file) => writeFile(join(project, file), TYPED_CONSUMER_SOURCE)));
  await Promise.all(
    RESOLUTION_SETUPS.map((setup) => {
      const config = {
        compilerOptions: {
          ...STRICT_APPLICATION_OPTIONS,
          lib: ['es2023', 'dom', 'dom.iterable'],
          module: setup.module,
          moduleResolution: setup.moduleResolution,
        },
        files: setup.files,
      };
      return writeFile(join(project, configName(setup)), `${JSON.stringify(config, null, 2)}\n`);
    }),
  );
}

/** Runs `tsc -p` with the setup's tsconfig; rejects with the compiler's output on any error. */
export function typeCheck(project: string, setup: ResolutionSetup): Promise<RunOutput> {
  return run(TSC, ['-p', configName(setup), '--pretty', 'false'], { cwd: project, node: PINNED_NODE });
}
