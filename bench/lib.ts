import autocannon from 'autocannon';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { serverNodeFlags } from '../scripts/server-node-flags.ts';

export async function freePort(): Promise<number> {
  return new Promise((done) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

export async function waitForStatus(
  url: string,
  status: number,
  timeoutMs = 20_000
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).status === status) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`${url} did not answer ${status} within ${timeoutMs} ms`);
}

/** A bare node:http server in its own process answering `body` as JSON on every request. */
export async function startBare(body: string): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const code = `require('node:http').createServer((q,s)=>{const b=${JSON.stringify(body)};s.writeHead(200,{'content-type':'application/json','content-length':Buffer.byteLength(b)});s.end(b)}).listen(${port},'127.0.0.1')`;
  const proc = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
  process.once('exit', () => proc.kill());
  const url = `http://127.0.0.1:${port}`;
  await waitForStatus(`${url}/`, 200);
  return { url, proc };
}

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

const hasWrk = (() => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk prints its version and exits 1; only a missing binary throws ENOENT.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
})();

/** The load generator: wrk (C, one thread, light on the shared cores) or autocannon. */
export const loadTool = hasWrk ? 'wrk -t1' : 'autocannon';

export async function load(
  url: string,
  options: { connections?: number; duration?: number } = {}
): Promise<LoadResult> {
  const connections = options.connections ?? 32;
  const duration = options.duration ?? 8;
  if (hasWrk) return wrk(url, connections, duration);
  const result = await autocannon({ url, connections, duration, pipelining: 1 });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx
  };
}

function wrk(url: string, connections: number, duration: number): LoadResult {
  const out = execFileSync('wrk', ['-t1', `-c${connections}`, `-d${duration}s`, '--latency', url], {
    encoding: 'utf8'
  });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const scale = { us: 0.001, ms: 1, s: 1000 }[(p99?.[2] ?? 'ms') as 'us' | 'ms' | 's'];
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const errors = /Socket errors:.*?(\d+).*?(\d+).*?(\d+).*?(\d+)/.exec(out);
  return {
    requestsPerSecond: Math.round(rps),
    p99Ms: Math.round(Number(p99?.[1] ?? 0) * scale * 100) / 100,
    errors: errors ? errors.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
    non2xx
  };
}

/** Starts the built Berth (`node server.js`) on a free port with its own data dir and config. */
export async function spawnBerth(
  config: string | null,
  env: Record<string, string> = {},
  /** An existing data dir (a restart); a new one by default. */
  existingDataDir?: string
) {
  const root = resolve(import.meta.dirname, '..');
  const dataDir = existingDataDir ?? mkdtempSync(join(tmpdir(), 'berth-bench-'));
  if (config !== null) writeFileSync(join(dataDir, 'berth.yaml'), config);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const spawnedAt = performance.now();
  const proc = spawn(process.execPath, [...serverNodeFlags, 'server.js'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BERTH_DATA_DIR: dataDir,
      ...(config !== null ? { BERTH_CONFIG: join(dataDir, 'berth.yaml') } : {}),
      // The default level, so the access log's cost is in the figures; its lines go nowhere.
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      ...env
    },
    stdio: ['ignore', 'ignore', 'inherit']
  });
  // A bench that fails half-way must not leave a server holding the terminal.
  process.once('exit', () => proc.kill());
  await waitForStatus(`${url}/readyz`, 200);
  return { url, port, dataDir, proc, readyMs: Math.round(performance.now() - spawnedAt) };
}

/** The head of a wrk Lua script that POSTs JSON with a bearer token. */
export const wrkJsonPost = (token: string) => `wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer ${token}"
`;

/** The bare `node:http` baseline answering as Berth's `/hooks/wake` does. */
export function startBareWake() {
  return startBare(
    JSON.stringify({
      status: 200,
      message: 'Event queued for agent main',
      eventId: crypto.randomUUID()
    })
  );
}

/**
 * A wrk script POSTing wakes to `/hooks/wake`, each with a unique text (run tag and wrk's
 * thread-local counter), written into `dir`; returns its path.
 */
export function writeWakeScript(dir: string, token: string, label: string): string {
  const script = join(dir, 'wake.lua');
  writeFileSync(
    script,
    `${wrkJsonPost(token)}local n = 0
local tag = tostring(os.time()) .. "-" .. tostring(math.random(1, 1000000000))
request = function()
  n = n + 1
  return wrk.format(nil, nil, nil, '{"text":"${label} ' .. tag .. ' ' .. n .. '","metadata":{"source":"bench"}}')
end
`
  );
  return script;
}

/**
 * A ratio over alternated rounds: each round's own (`a[i] / b[i]`, measured seconds apart) and
 * their median. A round's ratio leaves out what the shared host did to both sides, the median a
 * round that another tenant disturbed. Best against best is biased against the steadier side:
 * the best of several rounds grows with their spread.
 */
export function roundRatios(a: number[], b: number[]): { each: number[]; median: number } {
  const each = a.map((value, i) => value / b[i]!);
  return { each, median: [...each].sort((x, y) => x - y)[each.length >> 1]! };
}

/** A round ratio as the benches print it: each round's, then their median. */
export const formatRatios = ({ each, median }: { each: number[]; median: number }) =>
  `${each.map((r) => r.toFixed(2)).join(' ')}: median ${median.toFixed(2)}`;
