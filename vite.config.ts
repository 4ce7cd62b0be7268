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

export default defineConfig({
  root,
  publicDir: false,
  clearScreen: false,
  logLevel: 'warn',
  build: {
    outDir: 'dist/demo',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: true,
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        'oauth-callback': fileURLToPath(new URL('./demo/oauth-callback.html', import.meta.url)),
      },
    },
  },
});
