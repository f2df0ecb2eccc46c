/**
 * In-process cost of parsing a page of 100 pets: `JSON.parse` of the body, and `PetListSchema` on
 * the parsed value.
 *
 * @module
 */
import { PetListSchema } from '../../src/index.js';
import { samplePets } from '../../src/testing/index.js';

export interface ParseResult {
  readonly name: string;
  readonly microsecondsPerParse: number;
}

function microsecondsPer(run: () => unknown, durationMs: number): number {
  for (let i = 0; i < 2_000; i++) run();
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

/** Times each parse for about `durationMs`. */
export function measureSchemaParse(durationMs = 1_000): ParseResult[] {
  const pets = samplePets(100);
  const text = JSON.stringify(pets);
  return [
    {
      name: 'JSON.parse (100 pets)',
      microsecondsPerParse: microsecondsPer(() => JSON.parse(text), durationMs),
    },
    {
      name: 'PetListSchema.parse (100 pets)',
      microsecondsPerParse: microsecondsPer(() => PetListSchema.parse(pets), durationMs),
    },
  ];
}
