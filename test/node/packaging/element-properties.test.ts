/**
 * Every public field that custom-elements.json documents is an accessor on its element's
 * prototype: frameworks (the React wrappers through @lit/react, React 19 itself, Vue, Angular)
 * decide between property and attribute with `name in element`, and a property set on an element
 * before it upgrades is taken over only when the class declares it. A plain class field with no
 * initializer (how `oidcTokenProvider` was once declared) is neither.
 *
 * Runs in Node with @lit-labs/ssr-dom-shim, installed before the element modules evaluate.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HTMLElement, customElements } from '@lit-labs/ssr-dom-shim';
import { ROOT } from '../../../bench/size.ts';

interface Member {
  kind: string;
  name: string;
  static?: boolean;
  privacy?: string;
  readonly?: boolean;
}

test('every documented public field is an accessor on the element prototype', async () => {
  Object.assign(globalThis, { HTMLElement, customElements });
  const lib = (await import('../../../src/index.ts')) as unknown as Record<string, { prototype: object }>;
  const manifest = JSON.parse(readFileSync(join(ROOT, 'custom-elements.json'), 'utf8')) as {
    modules: Array<{ declarations?: Array<{ name: string; tagName?: string; customElement?: boolean; members?: Member[] }> }>;
  };
  let checked = 0;
  for (const d of manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.customElement)) {
    const cls = lib[d.name];
    assert.ok(cls, `${d.name} is exported`);
    for (const f of d.members ?? []) {
      if (f.kind !== 'field' || f.static || f.privacy === 'private' || f.privacy === 'protected') continue;
      // On the element's prototype or a base class's (heading-level comes from TemplateElement).
      let desc: PropertyDescriptor | undefined;
      for (let proto: object | null = cls.prototype; proto && !desc; proto = Object.getPrototypeOf(proto) as object | null) desc = Object.getOwnPropertyDescriptor(proto, f.name);
      assert.ok(desc?.get, `<${d.tagName}>.${f.name} is an accessor on the prototype`);
      if (!f.readonly) assert.ok(desc.set, `<${d.tagName}>.${f.name} can be set`);
      checked++;
    }
  }
  assert.ok(checked >= 35, `${checked} fields checked`);
});
