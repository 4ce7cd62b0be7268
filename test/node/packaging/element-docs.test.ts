import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { elementDocs } from '../../../scripts/element-docs.ts';

const root = new URL('../../../', import.meta.url);

test('docs/elements.md is generated from the committed custom-elements.json', () => {
  const manifest = readFileSync(new URL('custom-elements.json', root), 'utf8');
  const expected = elementDocs(manifest);
  const actual = readFileSync(new URL('docs/elements.md', root), 'utf8');
  assert.equal(actual, expected, 'docs/elements.md is stale: run `npm run docs:elements`');
  for (const tag of ['wallet-login', 'passkey-register', 'wallet-credentials', 'card-reveal', 'delegated-keys', 'agent-actions']) {
    assert.match(actual, new RegExp(`^## ${tag}$`, 'm'), `${tag} is documented`);
    const section = actual.split(/^## /m).find((s) => s.startsWith(`${tag}\n`)) ?? '';
    assert.match(section, /^### Custom states\n\n\| State \| Description \|\n(.*\n)*?\| `:state\([a-z-]+\)` \| \S/m, `${tag} has a Custom states table`);
    const cssProperties = /^### CSS custom properties\n\n([\s\S]*?)(?=^### |$(?![\s\S]))/m.exec(section)?.[1] ?? '';
    assert.doesNotMatch(cssProperties, /Custom states|:state\(/, `${tag}'s CSS custom properties table lists no states`);
  }
});
