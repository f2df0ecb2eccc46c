#!/usr/bin/env node
/**
 * `animal-store-fake-server`: starts a fake Animal Store on an HTTP server until Ctrl-C (SIGINT) or
 * SIGTERM. Exit codes: 0 after a clean stop or `--help`, 1 when the server cannot start or the
 * recording cannot be written, 2 for a bad command line or a `--replay` file that is not a HAR archive.
 *
 * ```sh
 * npx animal-store-fake-server --port 4010 --seed 25 --plan pro
 * ```
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_CHAOS_FAULTS } from '../disruptions/chaos.js';
import type { Har } from '../recording/har.js';
import { writeHarFile } from '../recording/har-file.js';
import { limitsOf, windowName } from '../rules/rate-limiter.js';
import { samplePets } from '../sample-pets.js';
import { buildFakePetStore } from '../store/fake-store.js';
import {
  type CliCommand,
  CliUsageError,
  COMMAND,
  internalErrorReport,
  parseCliArgs,
  USAGE,
} from './cli-args.js';

// A parent that stopped reading (a test runner gone) leaves our stdout closed: a line written then
// fails with EPIPE, which must not turn a clean stop into a crash. Other errors still throw.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
});

async function main(argv: readonly string[]): Promise<number> {
  let command: ReturnType<typeof parseCliArgs>;
  try {
    command = parseCliArgs(argv, process.env);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    process.stderr.write(`${COMMAND}: ${error.message}\nRun ${COMMAND} --help for the options.\n`);
    return 2;
  }
  if (command.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }

  let replay: Har | undefined;
  if (command.replay !== undefined) {
    let text: string;
    try {
      text = readFileSync(command.replay, 'utf8');
    } catch (error) {
      process.stderr.write(`${COMMAND}: cannot read the recording ${command.replay}: ${oneLine(error)}\n`);
      return 1;
    }
    try {
      replay = JSON.parse(text) as Har;
    } catch (error) {
      process.stderr.write(`${COMMAND}: cannot replay ${command.replay}: not JSON: ${oneLine(error)}\n`);
      return 2;
    }
  }
  let store: ReturnType<typeof buildFakePetStore>;
  try {
    store = buildFakePetStore(
      {
        apiKeys: { [command.key]: command.plan },
        ...(command.proxyKey === undefined ? {} : { proxyKey: command.proxyKey }),
        pets: samplePets(command.seed),
        maxBodyBytes: command.maxBodyBytes,
        onInternalError: (error, request) => process.stderr.write(internalErrorReport(error, request)),
        ...(replay === undefined ? {} : { replay }),
        maxRecordedBytes: command.maxLogBytes,
        // A recording keeps every request and every byte of every answer, within the log's bytes.
        ...(command.record === undefined
          ? { maxRecordedRequests: command.maxRecordedRequests }
          : {
              upstream: command.record.upstream,
              maxRecordedRequests: Number.POSITIVE_INFINITY,
              maxRecordedResponseBytes: Number.POSITIVE_INFINITY,
            }),
      },
      () => [],
    );
  } catch (error) {
    if (replay === undefined) throw error;
    process.stderr.write(`${COMMAND}: cannot replay ${command.replay}: ${oneLine(error)}\n`);
    return 2;
  }
  if (command.chaos !== undefined) store.injectChaos(command.chaos);
  let server: Awaited<ReturnType<typeof store.listen>>;
  try {
    server = await store.listen({
      port: command.port,
      hostname: command.host,
      requestTimeout: command.requestTimeout,
      control: command.control,
      ...(command.corsHeaders === undefined ? {} : { corsHeaders: command.corsHeaders }),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${COMMAND}: cannot listen on ${command.host}:${command.port}: ${reason}\n`);
    return 1;
  }

  const limits = limitsOf(command.plan);
  const planName = typeof command.plan === 'string' ? command.plan : 'custom';
  process.stdout.write(
    [
      `Animal Store fake server listening on ${server.url} (the base URL: give it to PetStoreClient and connectFakePetStore)`,
      ...(command.record !== undefined
        ? [
            `Recording: every request is forwarded to ${command.record.upstream}; the HAR is written to ${command.record.file} when stopped`,
          ]
        : command.replay !== undefined
          ? [`Replaying: ${replay?.log.entries.length ?? 0} recorded requests from ${command.replay}`]
          : [
              `API key: ${command.key} (${planName} plan: ${limits.perMinute} requests per ${windowName(limits)}, ${limits.perDay} per day)`,
              ...(command.proxyKey === undefined
                ? []
                : [
                    `Requests without a key: served with the key ${command.proxyKey}, as a backend route would send them`,
                  ]),
              `Pets: ${command.seed}`,
            ]),
      `Limits: request bodies up to ${command.maxBodyBytes} bytes; ${command.record === undefined ? `the latest ${command.maxRecordedRequests} requests kept` : 'every request kept'}, within ${command.maxLogBytes} bytes`,
      controlLine(server.controlUrl, command),
      ...(command.chaos === undefined
        ? []
        : [
            `Chaos: seed ${command.chaos.seed}, a share of ${command.chaos.rate} of the requests gets a fault (${DEFAULT_CHAOS_FAULTS.join(', ')})`,
          ]),
      ...(command.corsHeaders === undefined
        ? []
        : [`CORS: strict, allowing and exposing only ${command.corsHeaders.join(', ') || 'no headers'}`]),
      `Try: curl -H "Authorization: Bearer ${command.key}" ${server.url}/pets`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    const stop = (received: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(received);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  process.stdout.write(`Received ${signal}, stopping.\n`);
  await server.close();
  if (command.record !== undefined) {
    const { file, keepCookies } = command.record;
    const har = store.toHAR({ keepCookies });
    try {
      await writeHarFile(file, har);
    } catch (error) {
      process.stderr.write(`${COMMAND}: cannot write the recording ${file}: ${oneLine(error)}\n`);
      return 1;
    }
    const dropped =
      store.droppedRequests === 0 ? '' : ` (${store.droppedRequests} older ones dropped at --max-log-bytes)`;
    process.stdout.write(`Recorded ${har.log.entries.length} requests to ${file}${dropped}.\n`);
  }
  process.stdout.write(
    `Stopped.\nRequests kept in the log: ${store.requests.length}, dropped: ${store.droppedRequests}.\n`,
  );
  return 0;
}

/** An error's message on one line, for a refusal that needs no stack. */
function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
}

/** What the banner says of the control API: where it is and who may use it, never the token. */
function controlLine(
  controlUrl: string | undefined,
  command: Extract<CliCommand, { kind: 'serve' }>,
): string {
  if (controlUrl !== undefined) {
    const token = command.control !== false && command.control.token !== undefined;
    const origins = command.control === false ? [] : (command.control.trustedOrigins ?? []);
    const pages =
      origins.length === 0 ? 'no web page (see --trusted-origins)' : `pages from ${origins.join(', ')}`;
    return `Control API: ${controlUrl} (${token ? 'with the control token as a bearer token' : 'open to every process on this machine'}); in browsers, ${pages}`;
  }
  return command.control === false
    ? 'Control API: off (--no-control)'
    : `Control API: off, as ${command.host} is beyond loopback; give --control-token to turn it on`;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `${COMMAND}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
