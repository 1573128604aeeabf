import { defineConfig } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumArgs, chromiumPath } from './scripts/chromium.ts';
import { serverNodeFlags } from './scripts/server-node-flags.ts';

const port = Number(process.env.BERTH_E2E_PORT ?? 18799);
// One data dir per run, with a config file that turns webhooks on (they are off by default).
const dataDir = mkdtempSync(join(tmpdir(), 'berth-e2e-'));
writeFileSync(join(dataDir, 'berth.yaml'), 'webhooks:\n  enabled: true\n');
export const baseURL = `http://127.0.0.1:${port}`;

// Debian's Chromium; Playwright never downloads a browser here. One built Berth on a fresh
// data dir serves every flow: the set-up flow runs first (no user exists yet), then the rest.
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.e2e.ts',
  forbidOnly: true,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL,
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumArgs
    }
  },
  projects: [
    { name: 'setup', testMatch: 'first-admin.e2e.ts' },
    {
      name: 'flows',
      testIgnore: ['first-admin.e2e.ts', 'log-viewer.e2e.ts', 'buildfile-editor.e2e.ts'],
      dependencies: ['setup']
    },
    // Components on a harness page of their own (built by the test), no Berth or user needed.
    { name: 'components', testMatch: ['log-viewer.e2e.ts', 'buildfile-editor.e2e.ts'] }
  ],
  webServer: {
    command: ['node', ...serverNodeFlags, 'server.js'].join(' '),
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      HOST: '127.0.0.1',
      PORT: String(port),
      BERTH_DATA_DIR: dataDir,
      BERTH_CONFIG: join(dataDir, 'berth.yaml'),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production'
    }
  }
});
