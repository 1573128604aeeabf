/**
 * Builds the log viewer harness: a static page mounting LogViewer alone, for the Playwright
 * check in tests/e2e/log-viewer.e2e.ts. It lives under tests/, so nothing of it ships in Berth.
 */
import { svelte, vitePreprocess } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  logLevel: 'warn',
  plugins: [svelte({ configFile: false, preprocess: vitePreprocess() })],
  resolve: { alias: { $lib: fileURLToPath(new URL('../../../src/lib', import.meta.url)) } },
  build: { emptyOutDir: true, reportCompressedSize: false }
});
