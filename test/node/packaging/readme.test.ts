/**
 * The README as an integrator reads it after `npm install`: from node_modules/wallet-elements, where
 * only the packed files are. Every document it links to, and every file it names for an integrator
 * to read (a path in backticks, outside "Develop", which is about this repository), is in the
 * package, as `npm pack` lists it. (Its pictures are not packed: they are 3 MB.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../../bench/size.ts';

/** The package's files, as `npm pack` would write them (without building: what is on disk now). */
function packedFiles(): Set<string> {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [pack] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>;
  return new Set(pack!.files.map((f) => f.path));
}

test('every document the README links to and every file it names for an integrator is in the package', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const forIntegrators = readme.slice(0, readme.indexOf('\n## Develop'));
  const linked = [...readme.matchAll(/\]\(([^)#\s]+\.md)\)/g)].map((m) => m[1]!);
  const named = [...forIntegrators.matchAll(/`((?:src|docs|dist|scripts|demo)\/[\w./-]+\.\w+)`/g)].map((m) => m[1]!);
  assert.ok(linked.length > 0 && named.length > 0);
  const files = packedFiles();
  const missing = [...new Set([...linked, ...named])].filter((path) => !files.has(path));
  assert.deepEqual(missing, [], 'the README names files an installed package does not have');
});
