// Runs every Node test (test/node/**/*.test.ts, or the folders/files given) with node's own test
// runner through tsx. Node 20's --test does not expand globs itself, so the files are listed here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function collect(path, out) {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) collect(join(path, name), out);
  } else if (path.endsWith('.test.ts')) {
    out.push(path);
  }
  return out;
}

const roots = process.argv.slice(2);
const files = (roots.length ? roots : ['test/node']).flatMap((root) => collect(root, []));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
