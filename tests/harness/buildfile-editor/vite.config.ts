/**
 * Builds the build-file editor harness: a static page mounting BuildFileEditor alone, for the
 * Playwright check (tests/e2e/buildfile-editor.e2e.ts) and the bench. Nothing of it ships in Berth.
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
  build: { emptyOutDir: true, reportCompressedSize: false, chunkSizeWarningLimit: 2_000 }
});
