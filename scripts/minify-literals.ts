/**
 * Minifies the static text of Lit's tagged templates at build time, as an esbuild plugin
 * (`minifyLiterals`) used by the package build (scripts/build.ts) and the size measurement
 * (bench/size.ts), and as a Rolldown/Vite one (`minifyLiteralsTransform`) used by the per-element
 * CDN build and the load bench's pages (bench/load.ts), so that what is measured is what is shipped.
 *
 * - css`…`: comments removed, runs of whitespace collapsed to one space, and the space dropped
 *   next to `{ } ; , : >` and `/`, before `}` the last `;` of a block, and around a `*` that
 *   multiplies by a number (CSS Syntax 3: whitespace there is not significant; a `*` before anything
 *   else may be a selector and keeps its spaces, and `+ -` keep theirs, which calc() needs). A
 *   number's leading zero goes (`0.5em` -> `.5em`), and an attribute selector's quoted value that is
 *   an identifier loses its quotes (`[part='base']` -> `[part=base]`); other quoted strings are kept
 *   as they are.
 * - html`…`: every run of spaces, tabs and line breaks becomes one space. HTML renders a run of
 *   white space as one space outside preformatted text (CSS Text 3, white-space: normal), so the
 *   page looks the same; nothing is removed entirely, so two inline elements stay apart.
 *
 * Only the template's own text changes, never an expression `${…}`. A template is left whole when
 * it could be unsafe to touch: preformatted or raw-text content (`<pre`, `<textarea`, `<style`,
 * `<script`), a quote or comment that spans an expression, or a backslash before a line break; and
 * the build fails if a css`` sets `white-space: pre…` or `break-spaces`, under which collapsed
 * markup would render differently. Deliberately not here: renaming, removing attribute quotes,
 * dropping white space between tags, or anything else that needs to know the rendered layout.
 */
import type { Plugin } from 'esbuild';
import { readFile } from 'node:fs/promises';
import ts from 'typescript';

/** HTML's white space (HTML, "ASCII whitespace"): not U+00A0, which is content. */
const SPACE_RUN = /[ \t\n\r\f]+/g;

/** One static part of an html`` template. */
export function minifyHtmlPart(text: string): string {
  return text.replace(SPACE_RUN, ' ');
}

/** An attribute selector's value that may go unquoted: an identifier (CSS Syntax 3), ASCII only. */
const ATTRIBUTE_IDENT = /^-?[A-Za-z_][\w-]*$/;

/**
 * One static part of a css`` template, or null when it cannot be done safely (a string or comment
 * that does not end within the part).
 */
export function minifyCssPart(text: string): string | null {
  let out = '';
  let plain = '';
  const flush = () => {
    out += plain
      .replace(SPACE_RUN, ' ')
      .replace(/ ?([{};,>/]) ?/g, '$1')
      .replace(/ ?\* (?=\.?\d)/g, '*')
      .replace(/: /g, ':')
      .replace(/;}/g, '}')
      // Not at the start of the part: an expression may end in a digit there.
      .replace(/([^\w.#-])0\.(?=\d)/g, '$1.');
    plain = '';
  };
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) return null;
      const value = text.slice(i + 1, j);
      // `[name='value']`: an identifier needs no quotes (Selectors 4, attribute selectors).
      const bare = /=\s*$/.test(plain) && text[j + 1] === ']' && ATTRIBUTE_IDENT.test(value);
      flush();
      out += bare ? value : text.slice(i, j + 1);
      i = j + 1;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      if (end === -1) return null;
      // A comment separates tokens like white space does.
      plain += ' ';
      i = end + 2;
    } else {
      plain += c;
      i += 1;
    }
  }
  flush();
  return out;
}

const UNSAFE_HTML = /<(pre|textarea|style|script)\b/i;
/** Styles under which a run of white space in the markup would render as it is written. */
const PREFORMATTED = /white-space\s*:\s*(pre|break-spaces)/i;

/** The raw text of each static part of a template, with its position in the source. */
function parts(node: ts.TemplateLiteral, source: ts.SourceFile): Array<{ start: number; end: number; raw: string }> {
  const literals: ts.Node[] = ts.isNoSubstitutionTemplateLiteral(node) ? [node] : [node.head, ...node.templateSpans.map((s) => s.literal)];
  return literals.map((lit) => {
    const start = lit.getStart(source);
    const text = lit.getText(source);
    // `…` or `…${ or }…${ or }…`: the delimiters are one character before, one or two after.
    const open = 1;
    const close = text.endsWith('${') ? 2 : 1;
    return { start: start + open, end: start + text.length - close, raw: text.slice(open, text.length - close) };
  });
}

/** Minifies every html`` and css`` template of a TypeScript/JavaScript source; other text is untouched. */
export function minifyTemplates(code: string, fileName = 'file.ts'): string {
  if (!code.includes('html`') && !code.includes('css`')) return code;
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true);
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && (node.tag.text === 'html' || node.tag.text === 'css')) {
      const kind = node.tag.text;
      const pieces = parts(node.template, source);
      const whole = pieces.map((p) => p.raw).join('');
      if (kind === 'css' && PREFORMATTED.test(whole)) {
        // Collapsing the markup's white space would then change what is shown: refuse to build.
        throw new Error(`${fileName}: a css\`\` template sets white-space: pre; the html\`\` minifier (scripts/minify-literals.ts) would change its rendering`);
      }
      const unsafe = /\\\r?\n/.test(whole) || (kind === 'html' && UNSAFE_HTML.test(whole));
      if (!unsafe) {
        const out = pieces.map((p) => (kind === 'html' ? minifyHtmlPart(p.raw) : minifyCssPart(p.raw)));
        if (out.every((o): o is string => o !== null)) {
          pieces.forEach((p, i) => {
            if (out[i] !== p.raw) edits.push({ start: p.start, end: p.end, text: out[i]! });
          });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  let result = code;
  for (const e of edits.sort((a, b) => b.start - a.start)) result = result.slice(0, e.start) + e.text + result.slice(e.end);
  return result;
}

/** esbuild plugin: our TypeScript sources (not node_modules) go through minifyTemplates. */
export function minifyLiterals(): Plugin {
  return {
    name: 'minify-lit-literals',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes('/node_modules/')) return undefined;
        const code = await readFile(args.path, 'utf8');
        return { contents: minifyTemplates(code, args.path), loader: 'ts' };
      });
    },
  };
}

/**
 * The same as a Rolldown (and Vite) plugin: a transform of the TypeScript sources under `src`
 * (not node_modules). Vite runs it first with `enforce: 'pre'`, before its own TypeScript transform.
 */
export function minifyLiteralsTransform(src: string): { name: string; transform: (code: string, id: string) => { code: string; map: null } | undefined } {
  return {
    name: 'minify-lit-literals',
    transform: (code, id) => (id.startsWith(src) && id.endsWith('.ts') ? { code: minifyTemplates(code, id), map: null } : undefined),
  };
}
