// global-setup.ts: one fake server for the whole run.
import { spawn } from 'node:child_process';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    fakeStoreUrl: string;
  }
}

// The command's own Node process: through npx, stopping npx would leave the server running.
const COMMAND = 'node_modules/animal-store-sdk/dist/testing/cli.js';

export default async function setup(project: TestProject) {
  const server = spawn(process.execPath, [COMMAND, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    server.stdout.on('data', (chunk: Buffer) => {
      const match = /listening on (\S+)/.exec(chunk.toString());
      if (match?.[1]) resolve(match[1]);
    });
    exited.then((code) => reject(new Error(`animal-store-fake-server exited (${code}) before listening`)));
  });
  project.provide('fakeStoreUrl', url);
  return async () => {
    server.kill('SIGTERM'); // the command closes its server and exits 0
    await exited;
  };
}
