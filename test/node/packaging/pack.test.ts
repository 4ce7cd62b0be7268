/**
 * What `npm pack` ships, as it lists it without building (`--ignore-scripts`: what is on disk):
 * package.json, README, LICENSE, the manifest, the element documents and dist/, and nothing a
 * developer's run leaves beside them. `npm start` builds the demo page (vite.config.ts); were it
 * built among the package's files, a pack that does not rebuild first would ship it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'vite';
import { ROOT } from '../../../bench/size.ts';
import { DEMO_OUT_DIR } from '../../../vite.config.ts';

function packedFiles(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [pack] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>;
  return pack!.files.map((f) => f.path);
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

test('the demo page `npm start` builds is not in the package', async () => {
  // The build `npm start` runs (scripts/start.ts), for real.
  await build({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'silent' });
  const outDir = join(ROOT, DEMO_OUT_DIR);
  assert.ok(existsSync(join(outDir, 'index.html')), `the demo was built into ${DEMO_OUT_DIR}`);
  const demo = new Set(walk(outDir).map((file) => relative(ROOT, file).split('\\').join('/')));
  const files = packedFiles();
  assert.deepEqual(files.filter((path) => demo.has(path) || /(^|\/)demo\//.test(path)), [], 'the package ships the demo page');
  const other = files.filter((path) => !path.startsWith('dist/') && !/^docs\/[^/]+\.md$/.test(path) && !['package.json', 'README.md', 'LICENSE', 'custom-elements.json'].includes(path));
  assert.deepEqual(other, [], 'the package ships files outside dist/, docs/*.md and its own');
});

test('npm publishes package.json as written: it corrects nothing, and keeps the commands (bin)', () => {
  // What `npm publish` would send, offline and without a build (`--ignore-scripts`: dist/ as it is
  // on disk). npm drops a `bin` path it deems invalid from the manifest it publishes (a leading
  // `./`), which would leave `npx wallet-elements-proxy` without a command, and only warns.
  const run = spawnSync('npm', ['publish', '--dry-run', '--ignore-scripts', '--offline', '--registry', 'http://127.0.0.1:9/'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr);
  assert.doesNotMatch(run.stderr, /auto-corrected|was invalid and removed|errors corrected/, 'npm corrected package.json at publish');
  const bin = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin;
  assert.deepEqual(Object.keys(bin).sort(), ['wallet-elements-proxy', 'wallet-elements-sandbox']);
});
