// One cold start, in a fresh process of its own: load a client library and make its first call
// against the loopback server, then print the timings as `result <json>`. Plain JavaScript, so that
// Node and Bun run it as they are, without a TypeScript loader's own start-up in the figures.
//
// Usage: <runtime> cold-start-probe.mjs <contender> <base URL> <API key> [<module>]
// where <module> is what the `sdk` contender imports: the package's name (its built dist/ through
// its exports), the file URL of an application bundle, or of another build's dist/index.js.
const [contender, baseUrl, apiKey, module = 'animal-store-sdk'] = process.argv.slice(2);
const started = performance.now();
let imported = started;

async function firstCall() {
  switch (contender) {
    case 'fetch': {
      const response = await fetch(`${baseUrl}/pets?limit=1`, {
        headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
      });
      return (await response.json()).length;
    }
    case 'sdk': {
      const { PetStoreClient } = await import(module);
      imported = performance.now();
      const client = new PetStoreClient({ apiKey, baseUrl });
      return (await client.listPets({ limit: 1 })).length;
    }
    case 'openai': {
      // Only loaded and constructed: the fake store does not speak its API.
      const { default: OpenAI } = await import('openai');
      imported = performance.now();
      const client = new OpenAI({ apiKey, baseURL: baseUrl });
      return client.baseURL === baseUrl ? 0 : -1;
    }
    default:
      throw new Error(`Unknown contender ${contender}`);
  }
}

const pets = await firstCall();
const done = performance.now();
process.stdout.write(
  `result ${JSON.stringify({
    contender,
    pets,
    // From the process's start (performance's time origin) to the script's first line.
    bootMs: started,
    importMs: imported - started,
    firstCallMs: done - imported,
    scriptMs: done - started,
  })}\n`,
);
