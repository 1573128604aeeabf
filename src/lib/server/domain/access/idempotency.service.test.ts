import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../db/client';
import { AccessRepository } from '../../db/repositories/access.repository';
import { IDEMPOTENCY_TTL_MS, IdempotencyService } from './idempotency.service';

let dir: string;
let database: OpenedDatabase;
afterEach(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

function service(): IdempotencyService {
  dir = mkdtempSync(join(tmpdir(), 'berth-idempotency-'));
  database = openDatabase(join(dir, 'berth.db'), resolve('drizzle'));
  return new IdempotencyService(new AccessRepository(database.db));
}

describe('IdempotencyService', () => {
  it('runs an action once per scope and key, replaying its answer; another scope runs again', () => {
    const idempotency = service();
    let runs = 0;
    const act = () => ({ status: 200, body: { run: ++runs } });
    expect(idempotency.once('webhook:wake', 'k1', act)).toEqual({
      status: 200,
      body: { run: 1 },
      replayed: false
    });
    expect(idempotency.once('webhook:wake', 'k1', act)).toEqual({
      status: 200,
      body: { run: 1 },
      replayed: true
    });
    expect(idempotency.once('webhook:agent', 'k1', act).body).toEqual({ run: 2 });
    expect(idempotency.once('webhook:wake', null, act).body).toEqual({ run: 3 });
    expect(idempotency.once('webhook:wake', null, act).body).toEqual({ run: 4 });
  });

  it('keeps no failed answer, and nothing the action wrote when it throws', () => {
    const idempotency = service();
    expect(idempotency.once('s', 'k', () => ({ status: 400, body: {} })).replayed).toBe(false);
    expect(idempotency.once('s', 'k', () => ({ status: 200, body: { ok: 1 } })).replayed).toBe(
      false
    );
    const keys = () =>
      (database.sqlite.prepare('SELECT count(*) AS n FROM idempotency_keys').get() as { n: number })
        .n;
    expect(() =>
      idempotency.once('s', 'boom', () => {
        database.sqlite.prepare("INSERT INTO idempotency_keys VALUES ('x', 200, '{}', 1)").run();
        throw new Error('failed');
      })
    ).toThrow('failed');
    expect(keys()).toBe(1);
  });

  it('replays for 24 hours; forgetExpired drops older keys', () => {
    const idempotency = service();
    const start = 1_000_000;
    const act = () => ({ status: 200, body: {} });
    idempotency.once('s', 'k', act, start);
    expect(idempotency.once('s', 'k', act, start + IDEMPOTENCY_TTL_MS - 1).replayed).toBe(true);
    expect(idempotency.once('s', 'k', act, start + IDEMPOTENCY_TTL_MS + 1).replayed).toBe(false);
    expect(idempotency.forgetExpired(start + 2 * IDEMPOTENCY_TTL_MS)).toBe(0);
    expect(idempotency.forgetExpired(start + 2 * IDEMPOTENCY_TTL_MS + 2)).toBe(1);
  });
});
