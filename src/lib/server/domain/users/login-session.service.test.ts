import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../db/client';
import { LoginSessionRepository } from '../../db/repositories/login-session.repository';
import { UserRepository } from '../../db/repositories/user.repository';
import { DomainBus } from '../bus';
import { LoginSessionService, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from './login-session.service';

const DAY = 24 * 60 * 60 * 1000;

describe('LoginSessionService (real SQLite)', () => {
  let dir: string;
  let database: OpenedDatabase;
  let clock: number;
  let service: LoginSessionService;
  let userId: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-sessions-'));
    database = openDatabase(join(dir, 'berth.db'), resolve('drizzle'));
    clock = Date.UTC(2025, 0, 1);
    service = new LoginSessionService(
      new LoginSessionRepository(database.db),
      new DomainBus(),
      () => clock
    );
    userId = new UserRepository(database.db).insert({
      id: 'u1',
      email: 'a@example.com',
      name: 'a',
      role: 'admin',
      passwordHash: 'x'
    }).id;
  });
  afterEach(() => {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const storedCount = () =>
    (database.sqlite.prepare('select count(*) n from login_sessions').get() as { n: number }).n;

  it('ends a session left unused past the idle expiry', () => {
    const { token, expiresAt } = service.create(userId, { ip: null, userAgent: null });
    expect(expiresAt).toBe(clock + SESSION_IDLE_MS);
    clock += SESSION_IDLE_MS - 1;
    expect(service.validate(token)).not.toBeNull();
    clock += SESSION_IDLE_MS;
    expect(service.validate(token)).toBeNull();
    expect(storedCount()).toBe(0);
  });

  it('renews on use at most once a day, and never past 30 days after sign-in', () => {
    const signedIn = clock;
    const { token } = service.create(userId, { ip: null, userAgent: null });
    clock += 60_000;
    expect(service.validate(token)).toMatchObject({ renewed: false });
    // Used every day: the idle expiry keeps moving, but stops at the absolute end.
    let last = 0;
    for (let day = 1; day < 30; day++) {
      clock = signedIn + day * DAY;
      const valid = service.validate(token)!;
      expect(valid, `day ${day}`).not.toBeNull();
      expect(valid.expiresAt).toBeLessThanOrEqual(signedIn + SESSION_ABSOLUTE_MS);
      expect(valid.expiresAt).toBeGreaterThanOrEqual(last);
      last = valid.expiresAt;
    }
    expect(last).toBe(signedIn + SESSION_ABSOLUTE_MS);
    clock = signedIn + SESSION_ABSOLUTE_MS - 1;
    expect(service.validate(token)).not.toBeNull();
    clock = signedIn + SESSION_ABSOLUTE_MS;
    expect(service.validate(token)).toBeNull();
    expect(storedCount()).toBe(0);
  });

  it('refuses a 400-day-old session whose stored expiry is still ahead, and purges such', () => {
    const old = () => {
      const made = service.create(userId, { ip: null, userAgent: null });
      // As a session made before the absolute lifetime existed, renewed on use ever since.
      database.sqlite
        .prepare('update login_sessions set created_at = ?, expires_at = ? where id = ?')
        .run(clock - 400 * DAY, clock + 5 * DAY, made.sessionId);
      return made.token;
    };
    const fresh = service.create(userId, { ip: null, userAgent: null });
    expect(service.validate(old())).toBeNull();
    expect(storedCount()).toBe(1);
    old();
    expect(service.purgeExpired()).toBe(1);
    expect(service.validate(fresh.token)).not.toBeNull();
  });
});
