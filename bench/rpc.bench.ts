/**
 * RPC figures from one run, each against a bare baseline measured in the same run (loopback):
 * (1) POST /rpc system.health with a bearer token vs a bare node:http server (wrk, Lua POST);
 * (2) /rpc/ws with 64 requests kept in flight on one connection vs a bare `ws` echo server.
 * Run: `node bench/rpc.bench.ts` (after `npm run build`).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { freePort, rssMiB, spawnBerth, startBare } from './lib.ts';

const root = resolve(import.meta.dirname, '..');
const TOKEN = 'bench-token-0123456789abcdef';
const {
  url,
  port,
  dataDir,
  proc: berth
} = await spawnBerth(
  `gateway:\n  rpc:\n    auth:\n      tokens:\n        - { name: bench, token: "${TOKEN}", permissions: ["*"] }\n`
);

const body = '{"jsonrpc":"2.0","method":"system.health","params":{},"id":1}';

// (1) HTTP: wrk with a Lua script that POSTs the request.
const lua = join(dataDir, 'post.lua');
writeFileSync(
  lua,
  `wrk.method = "POST"\nwrk.body = ${JSON.stringify(body)}\nwrk.headers["Content-Type"] = "application/json"\nwrk.headers["Authorization"] = "Bearer ${TOKEN}"\n`
);
function wrk(target: string, seconds: number): { rps: number; p99: string; non2xx: number } {
  const out = execFileSync(
    'wrk',
    ['-t1', '-c32', `-d${seconds}s`, '--latency', '-s', lua, `${target}/rpc`],
    { encoding: 'utf8' }
  );
  return {
    rps: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0)),
    p99: /99%\s+(\S+)/.exec(out)?.[1] ?? '?',
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0)
  };
}
const healthAnswer = await (
  await fetch(`${url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body
  })
).text();
const bare = await startBare(healthAnswer);
wrk(url, 2);
wrk(bare.url, 2);
const httpBerth = wrk(url, 8);
const httpBare = wrk(bare.url, 8);
bare.proc.kill();

// (2) WebSocket: one connection, 64 requests always in flight, answers per second.
async function pipelined(target: string, headers: Record<string, string>, seconds: number) {
  const ws = new WebSocket(target, { headers });
  await new Promise((done, fail) => ws.once('open', done).once('error', fail));
  let answered = 0;
  let id = 0;
  let running = true;
  const send = () => ws.send(`{"jsonrpc":"2.0","method":"system.health","params":{},"id":${id++}}`);
  ws.on('message', () => {
    answered++;
    if (running) send();
  });
  for (let i = 0; i < 64; i++) send();
  await new Promise((r) => setTimeout(r, 1000)); // warm-up
  const from = answered;
  const started = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const rate = ((answered - from) * 1000) / (performance.now() - started);
  running = false;
  ws.close();
  return Math.round(rate);
}
const echoPort = await freePort();
const echo: ChildProcess = spawn(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `import { WebSocketServer } from 'ws'; const a=${JSON.stringify(healthAnswer)}; new WebSocketServer({ port: ${echoPort}, host: '127.0.0.1', perMessageDeflate: false }).on('connection', (ws) => ws.on('message', () => ws.send(a)));`
  ],
  { cwd: root, stdio: 'inherit' }
);
process.once('exit', () => echo.kill());
await new Promise((r) => setTimeout(r, 500));
const wsBerth = await pipelined(
  `ws://127.0.0.1:${port}/rpc/ws`,
  { authorization: `Bearer ${TOKEN}` },
  6
);
const wsBare = await pipelined(`ws://127.0.0.1:${echoPort}`, {}, 6);
echo.kill();

const rss = rssMiB(berth.pid!);
berth.kill('SIGTERM');
await new Promise((r) => berth.once('exit', r));
rmSync(dataDir, { recursive: true, force: true });

const rows = [
  [
    'POST /rpc system.health (Berth)',
    `${httpBerth.rps} req/s (p99 ${httpBerth.p99}, non-2xx ${httpBerth.non2xx})`,
    ''
  ],
  ['POST bare node:http', `${httpBare.rps} req/s (p99 ${httpBare.p99})`, ''],
  ['ratio', (httpBerth.rps / httpBare.rps).toFixed(2), 'target ≥ 0.60'],
  ['/rpc/ws 64 in flight (Berth)', `${wsBerth} answers/s`, ''],
  ['bare ws echo', `${wsBare} answers/s`, ''],
  ['ratio', (wsBerth / wsBare).toFixed(2), 'target ≥ 0.50'],
  ['Berth RSS after load', `${rss} MiB`, '']
];
for (const [name, value, target] of rows)
  console.log(`${name!.padEnd(34)} ${value!.padEnd(48)} ${target}`);
