/**
 * Container-skill run time against `docker run --rm -i` of the same image and command, in the
 * same run: a Berth with a container skill (busybox `cat`: the params JSON back as the result)
 * triggered over REST (POST /skills/trigger answers when the run's record is completed), and
 * the docker CLI with the same stdin, limits and no network. N runs each, interleaved so both
 * see the same machine; median, p95 and their ratio (target ≤ 1.2×).
 * Run: `node bench/skill.bench.ts` (after `npm run build`; needs the engine and the
 * berth-test/busybox base image of `scripts/ensure-system.sh`).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { spawnBerth } from './lib.ts';

const N = Number(process.env.BENCH_RUNS ?? 20);
const KEY = 'bench-skill-key-0123456789abcdef';
const IMAGE = 'berth-test/busybox:latest';
const PARAMS = { text: 'bench' };

const berth = await spawnBerth(`gateway:
  rest:
    apiKeys: [{ name: bench, key: "${KEY}", role: operator }]
skills:
  - id: cat
    kind: container
    image: ${IMAGE}
    command: [cat]
    memoryMb: 256
    cpus: 1
`);

async function viaBerth(): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${berth.url}/api/v1/skills/trigger`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ skill_id: 'cat', params: PARAMS })
  });
  const body = (await res.json()) as { status?: string; output?: unknown };
  if (body.status !== 'completed') throw new Error(`run ${JSON.stringify(body)}`);
  return performance.now() - started;
}

async function viaDocker(): Promise<number> {
  const started = performance.now();
  const child = promisify(execFile)('docker', [
    'run',
    '--rm',
    '-i',
    '--network',
    'none',
    '--memory',
    '256m',
    '--cpus',
    '1',
    IMAGE,
    'cat'
  ]);
  child.child.stdin!.end(JSON.stringify(PARAMS) + '\n');
  const { stdout } = await child;
  if (!stdout.includes('bench')) throw new Error(`docker run printed ${stdout}`);
  return performance.now() - started;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: quantile(s, 0.5), p95: quantile(s, 0.95) };
};

// Warm-up: the image in the page cache, the engine's API version pinned.
await viaBerth();
await viaDocker();
const berthTimes: number[] = [];
const dockerTimes: number[] = [];
for (let i = 0; i < N; i++) {
  berthTimes.push(await viaBerth());
  dockerTimes.push(await viaDocker());
}
berth.proc.kill('SIGTERM');

const b = stats(berthTimes);
const d = stats(dockerTimes);
const ms = (x: number) => `${Math.round(x)} ms`;
console.log(`container skill, ${N} runs each (interleaved)`);
console.log(`  Berth  trigger → completed: median ${ms(b.median)}, p95 ${ms(b.p95)}`);
console.log(`  docker run --rm -i:         median ${ms(d.median)}, p95 ${ms(d.p95)}`);
console.log(
  `  ratio: median ${(b.median / d.median).toFixed(2)}×, p95 ${(b.p95 / d.p95).toFixed(2)}× (target ≤ 1.2×)`
);
process.exit(0);
