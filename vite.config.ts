/**
 * Builds the demo page (index.html, demo/) for `npm start` (scripts/start.ts serves the output).
 *
 * A production build, not the dev server: the dev server injects styles and its client with
 * script, which a strict Content-Security-Policy (no 'unsafe-inline') refuses. The build emits
 * files only: one module script, one stylesheet, no inline script or style, no data: URLs
 * (`assetsInlineLimit: 0`), no module-preload polyfill. Decorators follow tsconfig.json
 * (experimentalDecorators, useDefineForClassFields: false), which vite 8 honours.
 */
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Where the demo is built, relative to the root: not under dist/, which is the package ("files"):
 * a pack that does not rebuild first (`--ignore-scripts`) would ship the demo, and the package
 * build, which empties dist/, would take the page from under a running `npm start`.
 */
export const DEMO_OUT_DIR = '.cache/demo';

export default defineConfig({
  root,
  publicDir: false,
  clearScreen: false,
  logLevel: 'warn',
  build: {
    outDir: DEMO_OUT_DIR,
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: true,
    rollupOptions: {
      // The demo shows every element, so it imports the whole library (src/index.ts), and the
      // modules an element loads on demand are in the page's bundle anyway. The bundler says so for
      // each of them at every `npm start`; that is expected here, so it is not printed.
      onwarn(warning, warn) {
        if (warning.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') warn(warning);
      },
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        'oauth-callback': fileURLToPath(new URL('./demo/oauth-callback.html', import.meta.url)),
      },
    },
  },
});
