/**
 * What the figures were measured on.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { repoRoot } from './tsx-process.js';

export interface MachineInfo {
  readonly date: string;
  readonly node: string;
  readonly platform: string;
  readonly arch: string;
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryBytes: number;
  /** The commit measured, with `+dirty` when the working tree has changes. */
  readonly commit: string | undefined;
  /** Versions of the dependencies measured. */
  readonly packages: Record<string, string>;
}

function installedVersion(name: string): string {
  const manifest = JSON.parse(readFileSync(`${repoRoot}node_modules/${name}/package.json`, 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

function commit(): string | undefined {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
    const head = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') === '' ? head : `${head}+dirty`;
  } catch {
    return undefined;
  }
}

export function machineInfo(): MachineInfo {
  const processors = cpus();
  return {
    date: new Date().toISOString(),
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    memoryBytes: totalmem(),
    commit: commit(),
    packages: {
      ky: installedVersion('ky'),
      zod: installedVersion('zod'),
      msw: installedVersion('msw'),
      undici: process.versions.undici ?? 'unknown',
    },
  };
}
