/**
 * The Lit literal minifier of the build (scripts/minify-literals.ts): unit cases for CSS and HTML
 * text, and the proof that matters, in real Chromium: every element built with and without it
 * renders the same markup (white space aside) under the same style rules, as the CSSOM serializes
 * them (spaces after commas aside), with the same computed style on every node, light and dark.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { minifyCssPart, minifyHtmlPart, minifyLiterals, minifyTemplates } from '../../../scripts/minify-literals.ts';
import { ROOT } from '../../../bench/size.ts';
import { bundleApp, htmlPage, startPageRig, type PageRig } from './page-rig.ts';

describe('css parts', () => {
  it('drops comments and the white space CSS Syntax 3 ignores, keeps what calc() and selectors need', () => {
    const input = `
  /* the host */
  :host {
    --x: var(--a, 0 0 0 3px red);
    padding: calc(var(--s) * 1.5 + 2px) calc(1px - 0.5em);
    grid-column: 1 / -1;
  }
  a > b, c d:hover, e * f, g > * {
    color: red;
  }
  @media (prefers-color-scheme: dark) { a { color: blue; } }
`;
    assert.equal(
      minifyCssPart(input),
      ' :host{--x:var(--a,0 0 0 3px red);padding:calc(var(--s)*1.5 + 2px) calc(1px - .5em);grid-column:1/-1}a>b,c d:hover,e * f,g>*{color:red}@media (prefers-color-scheme:dark){a{color:blue}}',
    );
  });

  it('drops leading zeros of numbers only, never of a longer number, a name or a colour', () => {
    assert.equal(minifyCssPart(`a { opacity: 0.7; gap: 10.5em 0.25em; margin: -0.5em; }`), `a{opacity:.7;gap:10.5em .25em;margin:-0.5em}`);
    assert.equal(minifyCssPart(`.x0.y { color: #000; width: 0; }`), `.x0.y{color:#000;width:0}`);
    // After an expression (the start of a part) a digit may come before it: left as it is.
    assert.equal(minifyCssPart(`0.5em }`), `0.5em}`);
  });

  it('unquotes an attribute selector whose value is an identifier, and no other string', () => {
    assert.equal(
      minifyCssPart(`[part='base'] [a="b-c"], [x~='y'], [lang='1a'], [t='a b'], [i='x' i] { font-family: 'Noto', x; content: 'q'; }`),
      `[part=base] [a=b-c],[x~=y],[lang='1a'],[t='a b'],[i='x' i]{font-family:'Noto',x;content:'q'}`,
    );
  });

  it('keeps quoted strings exactly, white space and punctuation included', () => {
    assert.equal(minifyCssPart(`a[title='x ,  y;'] { font-family: "A  B", sans-serif; }`), `a[title='x ,  y;']{font-family:"A  B",sans-serif}`);
  });

  it('refuses a string or comment that does not end within the part', () => {
    assert.equal(minifyCssPart(`content: '`), null);
    assert.equal(minifyCssPart(`a { } /* open`), null);
  });
});

describe('html parts', () => {
  it('collapses runs of ASCII white space to one space and keeps U+00A0', () => {
    assert.equal(minifyHtmlPart('\n      <p part="x"\n        class="a">\u00a0 hello\n\t</p>\n'), ' <p part="x" class="a">\u00a0 hello </p> ');
  });
});

describe('minifyTemplates', () => {
  it('changes only the text of html`` and css`` templates, never an expression or another literal', () => {
    const source = [
      "const plain = `keep   this\n  text`;",
      'const styles = css`\n  a {\n    color: ${color};\n  }\n`;',
      'const view = html`\n  <ul>\n    ${items.map((i) => html`<li>  ${i}  </li>`)}\n  </ul>\n`;',
      'const pre = html`<pre>  keep\n  this</pre>`;',
    ].join('\n');
    const out = minifyTemplates(source, 'sample.ts');
    assert.ok(out.includes('const plain = `keep   this\n  text`;'));
    assert.ok(out.includes('css` a{color:${color}}`'));
    assert.ok(out.includes('html` <ul> ${items.map((i) => html`<li> ${i} </li>`)} </ul> `'));
    assert.ok(out.includes('html`<pre>  keep\n  this</pre>`'));
  });

  it('refuses to build styles under which collapsed markup would render differently', () => {
    assert.throws(() => minifyTemplates('const s = css`p { white-space: pre-wrap; }`;', 'x.ts'), /white-space: pre/);
  });

  it('leaves every file of the library parseable, and every element file smaller', () => {
    for (const file of ['src/elements/wallet-login/wallet-login.ts', 'src/elements/shared/styles.ts', 'src/elements/card-reveal/card-reveal.styles.ts']) {
      const code = readFileSync(join(ROOT, file), 'utf8');
      const out = minifyTemplates(code, file);
      assert.ok(out.length < code.length, file);
    }
  });
});

describe('in Chromium, the library renders the same with and without the minifier', () => {
  const bundles: Record<'plain' | 'minified', string> = { plain: '', minified: '' };
  const tags = ['wallet-login', 'passkey-register', 'wallet-credentials', 'card-reveal', 'delegated-keys', 'agent-actions'];
  let rig: PageRig;

  before(async () => {
    const app = `export * from './src/index.ts';`;
    bundles.plain = await bundleApp(app, { nodeEnv: 'production' });
    bundles.minified = await bundleApp(app, { nodeEnv: 'production', plugins: [minifyLiterals()] });
    // A page per bundle that loads it with a module script of its own (under the page rig's Trusted
    // Types, a script element written by the test would be refused).
    const page = (kind: string) => htmlPage(`<script type="module" src="/${kind}.js"></script>` + tags.map((t) => `<${t} api-base="/api"></${t}>`).join(''));
    rig = await startPageRig((path) => {
      const kind = path.slice(1).replace(/\.js$/, '');
      if (kind !== 'plain' && kind !== 'minified') return undefined;
      return path.endsWith('.js') ? { type: 'js', body: bundles[kind] } : { type: 'html', body: page(kind) };
    });
  });

  after(async () => {
    await rig?.close();
  });

  /** Per element: its style rules as the CSSOM serializes them, its markup and each node's computed style. */
  async function render(kind: 'plain' | 'minified', theme: 'light' | 'dark'): Promise<Record<string, { rules: string[]; markup: string; computed: string[] }>> {
    const page = await rig.browser.newPage({ colorScheme: theme });
    await page.goto(`${rig.origin}/${kind}`);
    const out = await page.evaluate(async (names) => {
      const result: Record<string, { rules: string[]; markup: string; computed: string[] }> = {};
      for (const name of names) {
        await customElements.whenDefined(name);
        const el = document.querySelector(name) as HTMLElement & { updateComplete?: Promise<unknown> };
        await el.updateComplete;
        const root = el.shadowRoot!;
        // The CSSOM keeps a value with var() as written (CSS Variables 1, "unparsed" values), so a
        // space after a comma, around / or a * that multiplies, or a number's leading zero survives serialization
        // there; the computed styles below show that it changes nothing.
        // (Written out in each place: a named function here would need the test loader's helpers in the page.)
        const rules = root.adoptedStyleSheets.flatMap((sheet) =>
          [...sheet.cssRules].map((r) => r.cssText.replace(/\s*([,/]|\*(?=\s*\.?\d))\s*/g, '$1').replace(/([^\w.#-])0\.(?=\d)/g, '$1.')),
        );
        // Lit's markers carry a random number per page; white space is what the minifier changes.
        const markup = root.innerHTML.replace(/<!--\?lit\$\d+\$-->/g, '<!--?lit-->').replace(/\s+/g, ' ').replace(/> </g, '><').trim();
        const computed = [el, ...root.querySelectorAll('*')].map((n) => {
          const style = getComputedStyle(n);
          // Custom properties compute to their token streams (as written, in no set order); the
          // properties that use them compute to the same values either way.
          const lines = [...style].sort().map((p) => `${p}: ${p.startsWith('--') ? style.getPropertyValue(p).replace(/\s*([,/]|\*(?=\s*\.?\d))\s*/g, '$1').replace(/([^\w.#-])0\.(?=\d)/g, '$1.') : style.getPropertyValue(p)}`);
          return [n.tagName, ...lines].join('\n');
        });
        result[name] = { rules, markup, computed };
      }
      return result;
    }, tags);
    await page.close();
    return out;
  }

  for (const theme of ['light', 'dark'] as const) {
    it(`renders every element alike (${theme})`, async () => {
      const plain = await render('plain', theme);
      const minified = await render('minified', theme);
      for (const tag of tags) {
        assert.ok(plain[tag]!.rules.length > 5, `<${tag}> has its style rules`);
        assert.deepEqual(minified[tag]!.rules, plain[tag]!.rules, `<${tag}> style rules`);
        assert.equal(minified[tag]!.markup, plain[tag]!.markup, `<${tag}> markup`);
        const a = plain[tag]!.computed;
        const b = minified[tag]!.computed;
        assert.equal(b.length, a.length, `<${tag}> node count`);
        const differences = a.flatMap((node, i) => {
          const left = node.split('\n');
          const right = b[i]!.split('\n');
          return left.filter((line, j) => line !== right[j]).map((line) => `<${tag}> ${left[0]}: ${line} | minified: ${right[left.indexOf(line)]}`);
        });
        assert.deepEqual(differences, [], `<${tag}> computed styles`);
      }
    });
  }
});
