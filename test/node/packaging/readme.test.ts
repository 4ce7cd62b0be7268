/**
 * The README as an integrator reads it after `npm install`: from node_modules/wallet-elements, where
 * only the packed files are. Every document it links to, and every file it or a linked document
 * names for an integrator to read (a path in backticks, outside what is about this package's
 * repository: the README's "Develop", a section whose heading or a paragraph that says "this
 * repository" or "this package's repository"), is in the package, as `npm pack` lists it. (Its
 * pictures are not packed: they are 3 MB.)
 *
 * The package is laid out in a folder of the test's own: package.json (its "files"), the files the
 * README names as they are in this repository, and the named files of dist/ built there by the
 * build step that writes them (scripts/build.ts), so the test needs no earlier build.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../../bench/size.ts';
import { buildCdn, buildCdnElements, buildTypes } from '../../../scripts/build.ts';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const linked = [...readme.matchAll(/\]\(([^)#\s]+\.md)\)/g)].map((m) => m[1]!);

/** The paths in backticks a document names, leaving out its sections and paragraphs about this package's repository. */
function namedIn(text: string): string[] {
  const aboutRepository = /this (?:package's )?repository/i;
  return text
    .split(/^(?=## )/m)
    .filter((section) => !section.startsWith('## Develop') && !aboutRepository.test(section.slice(0, section.indexOf('\n'))))
    .flatMap((section) => section.split(/\n\s*\n/))
    .filter((paragraph) => !aboutRepository.test(paragraph))
    .flatMap((paragraph) => [...paragraph.matchAll(/`((?:src|docs|dist|scripts|demo|bench|test)\/[\w./-]+\.\w+)`/g)].map((m) => m[1]!));
}
const named = [readme, ...linked.map((path) => readFileSync(join(ROOT, path), 'utf8'))].flatMap(namedIn);

/**
 * Builds into `dir` the named files of dist/, each by the step of scripts/build.ts that writes it;
 * a file no step here writes is an error that says so.
 */
async function buildNamed(dir: string, paths: string[]): Promise<void> {
  const declarations: string[] = [];
  let cdn = false;
  let cdnElements = false;
  for (const path of paths) {
    const declaration = /^dist\/types\/(.+)\.d\.ts$/.exec(path);
    if (declaration) declarations.push(join(ROOT, 'src', `${declaration[1]}.ts`));
    else if (path.startsWith('dist/cdn/elements/')) cdnElements = true;
    else if (path.startsWith('dist/cdn/')) cdn = true;
    else throw new Error(`The README names ${path}, which this test does not build: add the step of scripts/build.ts that writes it to buildNamed.`);
  }
  if (cdn) await buildCdn(join(dir, 'dist/cdn'));
  if (cdnElements) await buildCdnElements(join(dir, 'dist/cdn/elements'));
  // Only the named declarations' sources and what they import: the whole of src/ takes far longer.
  if (declarations.length > 0) buildTypes(join(dir, 'dist/types'), declarations.filter((file) => existsSync(file)));
}

let dir: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'readme-pack-'));
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  for (const path of new Set(['README.md', ...linked, ...named.filter((p) => !p.startsWith('dist/'))])) {
    if (existsSync(join(ROOT, path))) cpSync(join(ROOT, path), join(dir, path), { recursive: true });
  }
  await buildNamed(dir, [...new Set(named.filter((p) => p.startsWith('dist/')))]);
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The package's files, as `npm pack` lists them from `dir` (without its scripts: the build is done). */
function packedFiles(cwd: string): Set<string> {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [pack] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>;
  return new Set(pack!.files.map((f) => f.path));
}

test('every document the README links to and every file it or they name for an integrator is in the package', () => {
  assert.ok(linked.length > 0 && named.length > 0);
  const files = packedFiles(dir);
  const missing = [...new Set([...linked, ...named])].filter((path) => !files.has(path));
  assert.deepEqual(missing, [], 'the README or a document it links to names files an installed package does not have');
});

test('every picture the README and its linked documents show has a text alternative and exists', () => {
  const bare: string[] = [];
  for (const path of ['README.md', ...linked]) {
    const text = readFileSync(join(ROOT, path), 'utf8');
    for (const [, alt, src] of text.matchAll(/!\[([^\]]*)\]\(([^)\s]+)\)/g)) {
      if (!alt!.trim()) bare.push(`${path}: ${src}`);
      assert.ok(existsSync(join(ROOT, path, '..', src!)), `${path} shows ${src}, which is not in the repository`);
    }
  }
  assert.deepEqual(bare, [], 'pictures without a text alternative (a screen reader says nothing of them)');
});
