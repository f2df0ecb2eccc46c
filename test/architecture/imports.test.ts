import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const src = join(root, 'src');

/** Every module of src/ and the local modules it imports, type-only imports and re-exports included. */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    // Without the doc comments, whose examples import modules as a reader would.
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    const targets = [...text.matchAll(/(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)\.js'/g)].map((match) =>
      relative(src, resolve(dirname(file), `${match[1]}.ts`)),
    );
    graph.set(relative(src, file), targets);
  }
  return graph;
}

/** The import cycles, each as the path around it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const walk = (node: string, path: string[]) => {
    const at = path.indexOf(node);
    if (at !== -1) {
      found.push([...path.slice(at), node]);
      return;
    }
    if (done.has(node)) return;
    for (const next of graph.get(node) ?? []) walk(next, [...path, node]);
    done.add(node);
  };
  for (const node of graph.keys()) walk(node, []);
  return found;
}

describe('the shape of src/', () => {
  const graph = importGraph();

  it('has no import cycles, type-only imports included', () => {
    expect(graph.size).toBeGreaterThan(30);
    expect(cycles(graph)).toEqual([]);
  });

  it('keeps the arrows one way: the client never loads the fake, Redis or OpenTelemetry, the fake never loads the client', () => {
    const entries = ['testing/', 'redis/', 'otel/'];
    const crossings = [...graph].flatMap(([from, targets]) =>
      targets
        .filter((to) => {
          const client = !entries.some((entry) => from.startsWith(entry));
          if (client) return entries.some((entry) => to.startsWith(entry));
          if (from.startsWith('testing/'))
            return (
              to.startsWith('core/') || to.startsWith('otel/') || to === 'client.ts' || to === 'index.ts'
            );
          // OpenTelemetry reads the channels' names and the shapes of their messages, nothing else.
          if (from.startsWith('otel/'))
            return !to.startsWith('otel/') && to !== 'core/diagnostics/diagnostics.ts';
          return to.startsWith('testing/') || to.startsWith('otel/');
        })
        .map((to) => `${from} -> ${to}`),
    );
    expect(crossings).toEqual([]);
  });
});
