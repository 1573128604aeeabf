/**
 * The Activity timeline over a large event table: 350,000 system events written straight into
 * the SQLite file (ids and times as Berth makes them: UUID v7, the time its first 48 bits), in
 * two agents and two sources, taken long ago; then pages of 50 through the console's API
 * (`activity.list` over tRPC, signed in), each page timed from request to parsed answer.
 * Run: `node bench/activity.bench.ts` (after `npm run build`).
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { uuidv7 } from '../src/lib/server/domain/ids.ts';
import { spawnBerth } from './lib.ts';

const EVENTS = 350_000;
const ADMIN = { email: 'admin@example.com', password: 'bench-password-0123' };
const env = { BERTH_ADMIN_EMAIL: ADMIN.email, BERTH_ADMIN_PASSWORD: ADMIN.password };
const config = `agents:
  - { name: main, provider: builtin, heartbeatMs: 86400000 }
  - { name: ops, provider: builtin, heartbeatMs: 86400000 }
`;

const first = await spawnBerth(config, env);
first.proc.kill('SIGTERM');
await new Promise((r) => first.proc.once('exit', r));
{
  const db = new Database(join(first.dataDir, 'berth.db'));
  db.pragma('journal_mode = WAL');
  const insert = db.prepare(
    `insert into system_events (id, agent_name, state, text, metadata, source, created_at, processed_at)
     values (?, ?, 'done', ?, null, ?, ?, ?)`
  );
  // Several events a millisecond, as a burst of wakes makes them.
  const start = Date.now() - EVENTS * 4;
  db.transaction(() => {
    for (let i = 0; i < EVENTS; i++) {
      const at = start + Math.floor(i / 3) * 10;
      const id = uuidv7(at);
      const ms = Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
      insert.run(id, i % 10 ? 'main' : 'ops', `event ${i}`, i % 4 ? 'webhook' : 'rpc', ms, ms);
    }
    // What the migration to slices does for taken events: the queue starts after them.
    db.prepare(
      `insert into event_slices (agent_name, first_rowid, last_rowid, count, state)
       select agent_name, max(rowid), max(rowid), 0, 'done' from system_events group by agent_name`
    ).run();
  })();
  db.close();
}

const berth = await spawnBerth(
  null,
  { ...env, BERTH_CONFIG: join(first.dataDir, 'berth.yaml') },
  first.dataDir
);
const login = await fetch(`${berth.url}/login`, {
  method: 'POST',
  redirect: 'manual',
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'text/html',
    origin: berth.url
  },
  body: new URLSearchParams(ADMIN).toString()
});
const cookie = login.headers
  .getSetCookie()
  .map((h) => h.split(';')[0]!)
  .find((pair) => pair.startsWith('berth_session=') && pair !== 'berth_session=');
if (!cookie) throw new Error(`login failed: ${login.status}`);

interface Page {
  items: { id: string; at: number }[];
  nextCursor: string | null;
}
async function page(input: Record<string, unknown>): Promise<{ ms: number; page: Page }> {
  const sent = performance.now();
  const res = await fetch(
    `${berth.url}/api/trpc/activity.list?input=${encodeURIComponent(JSON.stringify(input))}`,
    { headers: { origin: berth.url, cookie: cookie! } }
  );
  const body = (await res.json()) as { result?: { data: Page } };
  if (!body.result) throw new Error(`activity.list: ${res.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - sent, page: body.result.data };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const rows: [string, string][] = [];
async function measure(name: string, input: Record<string, unknown>, pages = 20) {
  await page(input);
  const times: number[] = [];
  let cursor: string | undefined;
  let items = 0;
  for (let i = 0; i < pages; i++) {
    const { ms, page: p } = await page({ ...input, ...(cursor ? { cursor } : {}) });
    times.push(ms);
    items += p.items.length;
    if (!p.nextCursor) break;
    cursor = p.nextCursor;
  }
  rows.push([
    name,
    `median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms (${times.length} pages, ${items} items)`
  ]);
}

const middle = Date.now() - EVENTS * 2;
await measure('no filter, newest 20 pages', {});
await measure('agent ops (1 event in 10)', { agent: 'ops' });
await measure('source rpc (1 in 4)', { source: 'rpc' });
await measure('events only, an hour in the middle', {
  kind: 'event',
  since: middle - 1_800_000,
  until: middle + 1_800_000
});
await measure('state done', { state: 'done' });

berth.proc.kill('SIGTERM');
await new Promise((r) => berth.proc.once('exit', r));
rmSync(first.dataDir, { recursive: true, force: true });

console.log(
  `\nactivity bench (${EVENTS} events in the file, pages of 50 over tRPC, one at a time)`
);
for (const [name, value] of rows) console.log(`${name.padEnd(40)} ${value}`);
