/**
 * A registry on loopback that serves the packed tarball as `animal-store-sdk` and passes every other
 * request on to the npm registry, so that Deno resolves `npm:animal-store-sdk` the way it resolves any
 * published package: packument, semver, tarball, integrity, then the package's own dependencies.
 * Every other packument is cut to the registry pin (registry-pin.ts), as npm's `--before` does.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { listenOnLoopback } from '../../bundle/support/page-server.js';
import type { PackedPackage } from '../../package/support/built-package.js';
import { REPO_ROOT } from '../../package/support/repo.js';
import { type Packument, packumentAtPin } from '../../support/registry-pin.js';

const UPSTREAM = 'https://registry.npmjs.org';

/** A running registry. */
export interface LocalRegistry {
  /** Its URL, with a trailing slash, for `NPM_CONFIG_REGISTRY`. */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the registry on 127.0.0.1 with `packed` as the only version of the repository's package. */
export async function startLocalRegistry(packed: PackedPackage): Promise<LocalRegistry> {
  const manifest = JSON.parse(await readFile(`${REPO_ROOT}package.json`, 'utf8')) as Record<
    string,
    unknown
  > & {
    name: string;
    version: string;
  };
  const tarball = await readFile(packed.tarball);
  const tarballPath = `/${manifest.name}/-/${manifest.name}-${manifest.version}.tgz`;

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://registry.invalid').pathname;
    const origin = `http://${request.headers.host}`;
    if (path === `/${manifest.name}`) {
      const { name, version, dependencies, peerDependencies, peerDependenciesMeta, bin, engines } = manifest;
      const packument = {
        name,
        'dist-tags': { latest: version },
        versions: {
          [version]: {
            name,
            version,
            dependencies,
            peerDependencies,
            peerDependenciesMeta,
            bin,
            engines,
            dist: {
              tarball: `${origin}${tarballPath}`,
              integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
              shasum: createHash('sha1').update(tarball).digest('hex'),
            },
          },
        },
      };
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(packument));
      return;
    }
    if (path === tarballPath) {
      response.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(tarball);
      return;
    }
    // A packument is asked for whole, since only the whole one says when each version was published.
    const isPackument = !path.includes('/-/');
    fetch(`${UPSTREAM}${path}`, {
      headers: { accept: isPackument ? 'application/json' : (request.headers.accept ?? '*/*') },
    }).then(
      async (upstream) => {
        const body =
          isPackument && upstream.ok
            ? JSON.stringify(packumentAtPin((await upstream.json()) as Packument))
            : Buffer.from(await upstream.arrayBuffer());
        response
          .writeHead(upstream.status, {
            'Content-Type': upstream.headers.get('content-type') ?? 'application/json',
          })
          .end(body);
      },
      (error: Error) => response.writeHead(502, { 'Content-Type': 'text/plain' }).end(error.message),
    );
  });
  const { origin, close } = await listenOnLoopback(server);
  return { url: `${origin}/`, close };
}
