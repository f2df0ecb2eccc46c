/**
 * In-process cost of parsing a page of 100 pets: `JSON.parse` of the body, the SDK's `PetListSchema`
 * (zod/mini objects parsed by zod's compiled object parser, as in the Node build), zod/mini's own
 * objects (as in the browser build) and classic zod, on the same parsed value in the same run.
 *
 * @module
 */
import { PetListSchema } from '../../src/index.js';
import { samplePets } from '../../src/testing/index.js';
import { ClassicPetListSchema, MiniPetListSchema } from './plain-schemas.js';

export interface ParseResult {
  readonly name: string;
  readonly microsecondsPerParse: number;
}

function microsecondsPer(run: () => unknown, durationMs: number): number {
  for (let i = 0; i < 300; i++) run();
  let count = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < durationMs) {
    for (let i = 0; i < 500; i++) run();
    count += 500;
    elapsed = performance.now() - start;
  }
  return (elapsed * 1000) / count;
}

/** Times each parse for about `durationMs`, in alternating rounds so that noise falls on all alike. */
export function measureSchemaParse(durationMs = 1_000): ParseResult[] {
  const pets = samplePets(100);
  const text = JSON.stringify(pets);
  const contenders: [string, () => unknown][] = [
    ['JSON.parse (100 pets)', () => JSON.parse(text)],
    ['PetListSchema.parse: zod/mini, compiled (the SDK, Node build)', () => PetListSchema.parse(pets)],
    ['zod/mini objects (the SDK, browser build)', () => MiniPetListSchema.parse(pets)],
    ['classic zod, the same schema', () => ClassicPetListSchema.parse(pets)],
  ];
  const rounds = 4;
  const totals = contenders.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    contenders.forEach(([, run], index) => {
      totals[index] = (totals[index] ?? 0) + microsecondsPer(run, durationMs / rounds);
    });
  }
  return contenders.map(([name], index) => ({ name, microsecondsPerParse: (totals[index] ?? 0) / rounds }));
}
