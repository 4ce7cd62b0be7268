/**
 * Bun and Deno for the tests that run the proxy under them (runtimes.test.ts), fetched on demand
 * from the npm registry as their platform packages (the binary inside, no install script), pinned,
 * into node_modules/.cache/runtimes/. Not in package.json: npm refuses a package for another
 * platform. Elsewhere than Linux x64 with glibc the tests skip, saying why.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../../bench/size.ts';

/** Bun's baseline build: its default one needs AVX2, which a CI machine's CPU may lack. */
export const RUNTIMES = {
  bun: { pkg: '@oven/bun-linux-x64-baseline', version: '1.4.5', bin: 'package/bin/bun' },
  deno: { pkg: '@deno/linux-x64-glibc', version: '2.9.6', bin: 'package/deno' },
} as const;

export type RuntimeName = keyof typeof RUNTIMES;

export const CACHE = join(ROOT, 'node_modules/.cache/runtimes');

/** Why the runtimes' packages cannot run on this machine, or undefined when they can. */
export function unsupported(): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') return `Bun and Deno are fetched as their linux-x64 packages; this is ${process.platform}-${process.arch}`;
  const glibc = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime;
  if (!glibc) return 'Bun and Deno are fetched as their glibc builds; this Linux has no glibc (musl?)';
  return undefined;
}

/** The path of `name`'s binary, its package fetched (`npm pack`) and unpacked on first use. */
export function ensureRuntime(name: RuntimeName): string {
  const { pkg, version, bin } = RUNTIMES[name];
  const dir = join(CACHE, `${pkg.slice(1).replace(/\W+/g, '-')}-${version}`);
  if (!existsSync(join(dir, bin))) {
    mkdirSync(CACHE, { recursive: true });
    // Unpacked beside, then renamed: a run stopped half-way leaves no half a binary.
    const tmp = mkdtempSync(join(CACHE, `.${name}-`));
    try {
      const tgz = execFileSync('npm', ['pack', `${pkg}@${version}`, '--pack-destination', tmp, '--silent'], { cwd: tmp, encoding: 'utf8', timeout: 180_000 }).trim();
      execFileSync('tar', ['-xzf', join(tmp, tgz), '-C', tmp], { timeout: 60_000 });
      rmSync(join(tmp, tgz));
      rmSync(dir, { recursive: true, force: true });
      renameSync(tmp, dir);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  return join(dir, bin);
}
