/**
 * Probes under a bad day, from one run on loopback:
 * (a) `/healthz` latency and Berth's RSS during a flood of 20,000 `POST /hooks/agent` at 128
 *     concurrent (wrk -t1, a Lua script counting answers by status), and how long the queued
 *     turns then take to finish;
 * (b) `/healthz` latency while a second SQLite connection (this process) holds
 *     `BEGIN EXCLUSIVE` on Berth's database for 10 s, with `POST /hooks/wake` writes attempted
 *     meanwhile (their statuses and latencies).
 * `/healthz` is sampled one request at a time over a keep-alive connection every 20 ms.
 * Run: `node bench/hardening.bench.ts` (after `npm run build`; needs wrk). With
 * `--max-queued N` the agent's turn queue holds up to N (`gateway.turns.maxQueuedPerAgent`,
 * default 1000): `--max-queued 100000` accepts the whole flood, the probes' worst case.
 */
import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { Agent, request } from 'node:http';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rssMiB, spawnBerth, wrkJsonPost } from './lib.ts';

const TOKEN = 'bench-webhook-token-0123456789';
const FLOOD = 20_000;
const CONCURRENCY = 128;
const LOCK_MS = 10_000;
const queueArg = process.argv.indexOf('--max-queued');
const MAX_QUEUED = queueArg > 0 ? Number(process.argv[queueArg + 1]) : undefined;
if (MAX_QUEUED !== undefined && !(MAX_QUEUED >= 1)) throw new Error('--max-queued N, N ≥ 1');

const {
  url,
  dataDir,
  proc: berth
} = await spawnBerth(
  `webhooks:\n  enabled: true\n  token: "${TOKEN}"\n  rateLimit: { maxRequests: 100000000, windowMs: 60000 }\n` +
    (MAX_QUEUED ? `gateway:\n  turns: { maxQueuedPerAgent: ${MAX_QUEUED} }\n` : '')
);
const pid = berth.pid!;

const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

/** One request; resolves with its status and milliseconds (never rejects). */
function timed(
  method: string,
  path: string,
  body?: string
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((done) => {
    const req = request(
      `${url}${path}`,
      {
        method,
        agent: body === undefined ? keepAlive : undefined,
        headers:
          body === undefined
            ? {}
            : { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }
      },
      (res) => {
        res.resume();
        res.on('end', () => done({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      }
    );
    req.on('error', () => done({ status: 0, ms: performance.now() - started }));
    req.end(body);
  });
}

/** Samples /healthz back to back (20 ms apart) until stopped; returns the latencies. */
function sampleHealth() {
  const latencies: number[] = [];
  let running = true;
  const finished = (async () => {
    while (running) {
      latencies.push((await timed('GET', '/healthz')).ms);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return async () => {
    running = false;
    await finished;
    return latencies;
  };
}

function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const ms = (v: number) => `${v.toFixed(1)} ms`;
const summary = (values: number[]) =>
  `p50 ${ms(percentile(values, 50))}, p99 ${ms(percentile(values, 99))}, max ${ms(Math.max(...values))} (${values.length} samples)`;

// (a) The agent-turn flood.
const lua = join(dataDir, 'agent.lua');
writeFileSync(
  lua,
  `${wrkJsonPost(TOKEN)}wrk.body = '{"message":"flood"}'
threads = {}
function setup(thread) table.insert(threads, thread) end
n, ok, limited, retry, other = 0, 0, 0, 0, 0
function response(status, headers, body)
  n = n + 1
  if status == 200 then ok = ok + 1
  elseif status == 429 then
    limited = limited + 1
    if headers["Retry-After"] ~= nil then retry = retry + 1 end
  else other = other + 1 end
  if n == ${FLOOD} then
    -- wrk runs for its whole duration: a file tells the bench to interrupt it (SIGINT).
    local f = io.open("${join(dataDir, 'flood.done')}", "w")
    f:write("done")
    f:close()
    wrk.thread:stop()
  end
end
function done(summary, latency, requests)
  for _, t in ipairs(threads) do
    io.write(string.format("COUNTS %d %d %d %d %d\\n", t:get("n"), t:get("ok"), t:get("limited"), t:get("retry"), t:get("other")))
  end
  io.write(string.format("P99 %d\\n", latency:percentile(99)))
end
`
);

const rssBefore = rssMiB(pid);
let rssPeak = rssBefore;
const rssSampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMiB(pid))), 100);
const idleHealth = sampleHealth();
await new Promise((r) => setTimeout(r, 1000));
const idleLatencies = await idleHealth();

const floodHealth = sampleHealth();
const floodStarted = performance.now();
const wrk = execFile(
  'wrk',
  ['-t1', `-c${CONCURRENCY}`, '-d300s', '--latency', '-s', lua, `${url}/hooks/agent`],
  { encoding: 'utf8' }
);
let stdout = '';
wrk.stdout!.on('data', (d: string) => (stdout += d));
const wrkExited = new Promise((r) => wrk.once('exit', r));
while (!existsSync(join(dataDir, 'flood.done')) && wrk.exitCode === null)
  await new Promise((r) => setTimeout(r, 20));
const floodMs = performance.now() - floodStarted;
wrk.kill('SIGINT');
await wrkExited;
const [answered, ok, limited, withRetry, other] = (/COUNTS (\d+) (\d+) (\d+) (\d+) (\d+)/
  .exec(stdout)
  ?.slice(1)
  .map(Number) ?? [0, 0, 0, 0, 0]) as [number, number, number, number, number];
const floodP99 = Number(/P99 (\d+)/.exec(stdout)?.[1] ?? 0) / 1000;

// The flood is answered; the accepted turns may still be running.
const db = new Database(join(dataDir, 'berth.db'));
const pending = () =>
  (
    db.prepare("select count(*) n from turns where state in ('queued', 'running')").get() as {
      n: number;
    }
  ).n;
while (pending() > 0 && performance.now() - floodStarted < 300_000)
  await new Promise((r) => setTimeout(r, 100));
const drainedMs = performance.now() - floodStarted;
const floodLatencies = await floodHealth();
clearInterval(rssSampler);
const turnCounts = db
  .prepare("select state, count(*) n from turns where source = 'webhook' group by state")
  .all() as { state: string; n: number }[];
await new Promise((r) => setTimeout(r, 2000));
const rssAfter = rssMiB(pid);

// (b) A second connection holds the database exclusively for 10 s.
db.pragma('busy_timeout = 10000');
const lockHealth = sampleHealth();
const writes: Promise<{ status: number; ms: number }>[] = [];
db.exec('BEGIN EXCLUSIVE');
const lockedAt = performance.now();
const writer = setInterval(() => {
  writes.push(timed('POST', '/hooks/wake', `{"text":"during the lock ${writes.length}"}`));
}, 1000);
await new Promise((r) => setTimeout(r, LOCK_MS));
clearInterval(writer);
db.exec('COMMIT');
const lockHeldMs = performance.now() - lockedAt;
const writeResults = await Promise.all(writes);
const lockLatencies = await lockHealth();
db.close();

berth.kill('SIGTERM');
await new Promise((r) => berth.once('exit', r));
rmSync(dataDir, { recursive: true, force: true });

console.log(`\nhardening bench (loopback, /healthz sampled every 20 ms on one keep-alive socket)`);
console.log(
  `(a) ${FLOOD} POST /hooks/agent, wrk -t1 -c${CONCURRENCY}, ${MAX_QUEUED ? `maxQueuedPerAgent ${MAX_QUEUED}` : 'default turn limits'}`
);
console.log(`  /healthz idle          ${summary(idleLatencies)}`);
console.log(`  /healthz during flood  ${summary(floodLatencies)}`);
console.log(
  `  answers                ${answered} in ${(floodMs / 1000).toFixed(1)} s: ${ok} × 200, ${limited} × 429 (${withRetry} with Retry-After), ${other} other; wrk p99 ${ms(floodP99)}`
);
console.log(
  `  turns                  ${turnCounts.map((t) => `${t.n} ${t.state}`).join(', ')}; all done ${(drainedMs / 1000).toFixed(1)} s after the flood began`
);
console.log(`  RSS                    ${rssBefore} before, ${rssPeak} peak, ${rssAfter} MiB after`);
console.log(`(b) BEGIN EXCLUSIVE held ${(lockHeldMs / 1000).toFixed(1)} s by a second connection`);
console.log(`  /healthz during lock   ${summary(lockLatencies)}`);
console.log(
  `  POST /hooks/wake       ${writeResults.map((w) => `${w.status} in ${ms(w.ms)}`).join('; ')}`
);
if (other > 0 || ok + limited !== answered) process.exitCode = 1;
