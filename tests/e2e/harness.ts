import { test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview, type PreviewServer } from 'vite';

/**
 * Builds the component harness `tests/harness/<name>` with Vite before the file's tests and
 * serves it on a free loopback port; removes it afterwards. Returns the page's address (known
 * once the tests run).
 */
export function serveHarness(name: string): () => string {
  const configFile = `tests/harness/${name}/vite.config.ts`;
  const outDir = mkdtempSync(join(tmpdir(), `berth-${name}-harness-`));
  let server: PreviewServer | undefined;
  let url = '';

  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async () => {
    await build({ configFile, build: { outDir } });
    server = await preview({
      configFile,
      build: { outDir },
      preview: { host: '127.0.0.1', port: 0 }
    });
    url = server.resolvedUrls!.local[0]!;
  });
  test.afterAll(async () => {
    await server?.close();
    rmSync(outDir, { recursive: true, force: true });
  });
  return () => url;
}
