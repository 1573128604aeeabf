/**
 * Foundation figures from one run: time from spawn to /readyz 200, idle RSS after start, and
 * /healthz requests/s against a bare node:http server answering the same JSON (loopback).
 * Run: `npm run bench` (after `npm run build`).
 */
import { rmSync } from 'node:fs';
import { load, loadTool, rssMiB, spawnBerth, startBare } from './lib.ts';

// No config file; warnings only, as the figures were first taken.
const { url, dataDir, proc: berth, readyMs } = await spawnBerth(null, { LOG_LEVEL: 'warn' });

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
  [
    'idle RSS after start',
    `${idleRss} MiB (${((idleRss * 1024 * 1024) / 1e6).toFixed(1)} MB)`,
    'target ≤ 120 MB'
  ],
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
