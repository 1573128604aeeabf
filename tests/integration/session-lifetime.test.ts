import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, startBerth, type Berth } from './helpers/berth';
import { ADMIN_ENV } from './helpers/console';

const DAY = 24 * 60 * 60 * 1000;

describe('login session lifetime', () => {
  let berth: Berth;
  let db: Database.Database;
  beforeAll(async () => {
    berth = await startBerth({ env: ADMIN_ENV });
    // A second connection to the live file, as an operator with sqlite3 would have.
    db = new Database(join(berth.dataDir, 'berth.db'));
  });
  afterAll(async () => {
    db.close();
    await berth.stop();
  });

  /** Rewrites a session's times in the stored row; the cookie is `berth_session=id.secret`. */
  function age(cookie: string, createdAt: number, expiresAt: number) {
    const id = cookie.split('=')[1]!.split('.')[0]!;
    const changed = db
      .prepare('update login_sessions set created_at = ?, expires_at = ? where id = ?')
      .run(createdAt, expiresAt, id).changes;
    expect(changed).toBe(1);
  }

  const usersList = (cookie: string) =>
    fetch(`${berth.url}/api/trpc/users.list?input=%7B%7D`, { headers: { cookie } });

  it('refuses a session signed in 400 days ago even though its idle expiry is ahead', async () => {
    const cookie = await login(berth);
    expect((await usersList(cookie)).status).toBe(200);
    age(cookie, Date.now() - 400 * DAY, Date.now() + 5 * DAY);
    const res = await usersList(cookie);
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie().join()).toMatch(/berth_session=;/);
    const page = await fetch(`${berth.url}/`, { headers: { cookie }, redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toMatch(/^\/login/);
    // The refused session is gone from the store, not only refused.
    const id = cookie.split('=')[1]!.split('.')[0]!;
    expect(db.prepare('select count(*) n from login_sessions where id = ?').get(id)).toEqual({
      n: 0
    });
  });

  it('renews the idle expiry on use, but never past 30 days after sign-in', async () => {
    const cookie = await login(berth);
    const signedIn = Date.now() - 25 * DAY;
    age(cookie, signedIn, Date.now() + 60 * 60_000);
    const res = await usersList(cookie);
    expect(res.status).toBe(200);
    const renewed = res.headers.getSetCookie().find((c) => c.startsWith('berth_session='));
    expect(renewed).toBeDefined();
    const expires = Date.parse(/Expires=([^;]+)/i.exec(renewed!)![1]!);
    // Cookie dates have whole seconds.
    expect(Math.abs(expires - (signedIn + 30 * DAY))).toBeLessThan(2000);
    const id = cookie.split('=')[1]!.split('.')[0]!;
    const row = db.prepare('select expires_at e from login_sessions where id = ?').get(id) as {
      e: number;
    };
    expect(row.e).toBe(signedIn + 30 * DAY);
  });
});
