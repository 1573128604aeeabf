/**
 * Turn overhead with the builtin provider: message in → reply stored, as a client sees it.
 * `POST /api/v1/chat/send` answers once the turn's reply is committed; each send is timed
 * from the request to the answer, on keep-alive connections:
 * (1) one client, one session, sends one after another (the session grows and is compacted as
 *     it goes, as a chat is);
 * (2) 8 clients at once, each in a session of its own;
 * against the same round trip to a bare node:http server answering the reply's JSON (the
 * floor: HTTP on loopback). Then the replies are counted in the SQLite file.
 * Run: `node bench/turn.bench.ts` (after `npm run build`).
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { spawnBerth, startBare } from './lib.ts';

const KEY = 'bench-turn-key-0123456789abcdef';
const SEQUENTIAL = Number(process.env.BENCH_TURNS ?? 2_000);
const CLIENTS = 8;
const PER_CLIENT = Math.ceil(SEQUENTIAL / CLIENTS);

const berth = await spawnBerth(`gateway:
  rest:
    apiKeys: [{ name: bench, key: "${KEY}", role: operator }]
agents:
  - { name: main, provider: builtin, heartbeatMs: 86400000 }
`);
const bare = await startBare(
  JSON.stringify({ messageId: 'm', sessionId: 's', turnId: 't', status: 'completed', reply: 'ok' })
);

const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });

/** One POST; resolves with its time in ms once the whole answer is read. */
function post(url: string, body: string): Promise<{ ms: number; status: number; text: string }> {
  const sent = performance.now();
  return new Promise((done, fail) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${KEY}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body)
        }
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done({ ms: performance.now() - sent, status: res.statusCode!, text }));
      }
    );
    req.on('error', fail);
    req.end(body);
  });
}

async function send(base: string, session: string, n: number): Promise<number> {
  const body = JSON.stringify({ message: `turn bench message ${n}`, session });
  const { ms, status, text } = await post(`${base}/api/v1/chat/send`, body);
  if (status !== 200 || !text.includes('"reply"')) throw new Error(`${status} ${text}`);
  return ms;
}

async function clients(base: string, count: number, each: number, tag: string) {
  const times: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, async (_, c) => {
      for (let i = 0; i < each; i++) times.push(await send(base, `${tag}-${c}`, i));
    })
  );
  return { times, seconds: (performance.now() - started) / 1000 };
}

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
};
const describe = ({ times, seconds }: { times: number[]; seconds: number }) =>
  `p50 ${pct(times, 0.5).toFixed(2)} ms, p99 ${pct(times, 0.99).toFixed(2)} ms, ` +
  `max ${pct(times, 1).toFixed(1)} ms (${times.length} turns, ${Math.round(times.length / seconds)}/s)`;

// Warm-up, then each measure against the floor in the same run.
await clients(berth.url, 1, 200, 'warm');
await clients(bare.url, 1, 200, 'warm');
const one = await clients(berth.url, 1, SEQUENTIAL, 'one');
const oneBare = await clients(bare.url, 1, SEQUENTIAL, 'one');
const many = await clients(berth.url, CLIENTS, PER_CLIENT, 'many');
const manyBare = await clients(bare.url, CLIENTS, PER_CLIENT, 'many');

agent.destroy();
bare.proc.kill();
berth.proc.kill('SIGTERM');
await new Promise((r) => berth.proc.once('exit', r));
const db = new Database(join(berth.dataDir, 'berth.db'), { readonly: true });
const stored = (
  db
    .prepare(
      `select count(*) n from messages m join chat_sessions s on s.id = m.session_id
       where m.role = 'assistant' and (s.key like 'one-%' or s.key like 'many-%')`
    )
    .get() as { n: number }
).n;
db.close();
rmSync(berth.dataDir, { recursive: true, force: true });

const expected = one.times.length + many.times.length;
console.log(
  `\nturn bench (builtin provider, POST /api/v1/chat/send answered once the reply is stored)`
);
console.log(`one client, one session      ${describe(one)}`);
console.log(`  bare node:http round trip  ${describe(oneBare)}`);
console.log(`${CLIENTS} clients, a session each  ${describe(many)}`);
console.log(`  bare node:http round trip  ${describe(manyBare)}`);
console.log(`replies stored               ${stored} of ${expected}`);
if (stored !== expected) process.exitCode = 1;
