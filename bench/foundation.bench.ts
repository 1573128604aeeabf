/**
 * Foundation figures from one run: time from spawn to /readyz 200, idle RSS after start, and
 * /healthz requests/s against a bare node:http server answering the same JSON (loopback).
 * Run: `npm run bench` (after `npm run build`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, load, loadTool, rssMiB, startBare, waitForStatus } from './lib.ts';

const root = resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;

const spawnedAt = performance.now();
const berth = spawn(process.execPath, ['server.ts'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    BERTH_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production'
  },
  stdio: 'inherit'
});
await waitForStatus(`${url}/readyz`, 200);
const readyMs = Math.round(performance.now() - spawnedAt);

await new Promise((r) => setTimeout(r, 3_000));
const idleRss = rssMiB(berth.pid!);

const bare = await startBare(JSON.stringify({ status: 'ok' }));
// Warm both up, then measure each in turn with the same load.
await load(`${url}/healthz`, { duration: 3 });
await load(`${bare.url}/healthz`, { duration: 3 });
const berthLoad = await load(`${url}/healthz`);
const bareLoad = await load(`${bare.url}/healthz`);
const loadedRss = rssMiB(berth.pid!);

bare.proc.kill();
berth.kill('SIGTERM');
await new Promise((r) => berth.once('exit', r));
rmSync(dataDir, { recursive: true, force: true });

const ratio = berthLoad.requestsPerSecond / bareLoad.requestsPerSecond;
const rows = [
  ['spawn → /readyz 200', `${readyMs} ms`, 'target ≤ 1500 ms'],
  ['idle RSS after start', `${idleRss} MiB`, 'target ≤ 120 MB'],
  ['RSS after load', `${loadedRss} MiB`, ''],
  [
    '/healthz Berth',
    `${berthLoad.requestsPerSecond} req/s (p99 ${berthLoad.p99Ms} ms, errors ${berthLoad.errors + berthLoad.non2xx})`,
    ''
  ],
  ['/healthz bare node:http', `${bareLoad.requestsPerSecond} req/s (p99 ${bareLoad.p99Ms} ms)`, ''],
  ['ratio Berth / bare', ratio.toFixed(2), 'target ≥ 0.70']
];
console.log(
  `\nBerth foundation benchmark (Node ${process.version}, ${loadTool}, 32 connections, 8 s each, loopback)`
);
for (const [what, value, target] of rows)
  console.log(`  ${what!.padEnd(26)} ${value!.padEnd(48)} ${target}`);
