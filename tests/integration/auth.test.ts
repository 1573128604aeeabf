import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  login,
  postForm,
  sessionCookie,
  startBerth,
  trpc,
  type Berth
} from './helpers/berth';
import { ADMIN_ENV, createUser as addUser, startWithAdmin } from './helpers/console';
import { closed, connectSocket, openRpcWs, waitFor } from './helpers/sockets';

/** Posts the set-up form. */
const setUp = (berth: Berth, email: string, name: string, password: string, confirm: string) =>
  postForm(berth, '/setup', { email, name, password, confirm });

describe('team login', () => {
  let berth: Berth;
  let admin: string;
  beforeAll(async () => ({ berth, admin } = await startWithAdmin()));
  afterAll(() => berth.stop());

  const createUser = (email: string, role: 'viewer' | 'operator', password?: string) =>
    addUser(berth, admin, email, role, password);

  it('creates the first admin from the environment and refuses a second set-up', async () => {
    const setup = await fetch(`${berth.url}/setup`, { redirect: 'manual' });
    expect(setup.status).toBe(303);
    expect(setup.headers.get('location')).toBe('/login');
    const post = await setUp(berth, 'x@example.com', 'x', 'another-password', 'another-password');
    expect(post.status).toBe(303);
    expect(post.headers.get('location')).toBe('/login');
    const users = await trpc(berth, admin, 'users.list', undefined, 'query');
    expect((users.body.result!.data as { email: string }[]).map((u) => u.email)).toEqual([
      ADMIN.email
    ]);
  });

  it('sets an HttpOnly, SameSite=Lax session cookie (not Secure over http) and stores only a hash', async () => {
    const res = await postForm(berth, '/login', ADMIN);
    const header = res.headers.getSetCookie().find((c) => c.startsWith('berth_session='))!;
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=Lax/i);
    expect(header).not.toMatch(/Secure/i);
    const token = sessionCookie(res)!.split('=')[1]!;
    const [id, secret] = token.split('.');
    const db = new Database(join(berth.dataDir, 'berth.db'), { readonly: true });
    const row = db.prepare('select secret_hash from login_sessions where id = ?').get(id) as {
      secret_hash: string;
    };
    db.close();
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.secret_hash).not.toContain(secret!);
  });

  it('a wrong password is a 400 with a message, and is audited', async () => {
    const res = await postForm(berth, '/login', { email: ADMIN.email, password: 'wrong-password' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Wrong e-mail address or password');
    const audit = await trpc(berth, admin, 'audit.list', { limit: 20 }, 'query');
    const actions = (audit.body.result!.data as { action: string }[]).map((a) => a.action);
    expect(actions).toContain('login.failed');
    expect(actions).toContain('login');
  });

  it('throttles guessing per account, without a permanent lockout', async () => {
    await createUser('throttled@example.com', 'viewer', 'the-right-password');
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push(
        (
          await postForm(berth, '/login', {
            email: 'throttled@example.com',
            password: `guess-${i}`
          })
        ).status
      );
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses[5]).toBe(429);
    const right = await postForm(berth, '/login', {
      email: 'throttled@example.com',
      password: 'the-right-password'
    });
    expect(right.status).toBe(429);
    expect(await right.text()).toMatch(/Try again in \d+ s/);
    await new Promise((r) => setTimeout(r, 2_200));
    const later = await postForm(berth, '/login', {
      email: 'throttled@example.com',
      password: 'the-right-password'
    });
    expect(later.status).toBe(303);
  });

  it('logout ends the session: the old cookie no longer opens the console', async () => {
    const cookie = await login(berth);
    expect((await fetch(`${berth.url}/`, { headers: { cookie }, redirect: 'manual' })).status).toBe(
      200
    );
    const out = await postForm(berth, '/logout', {}, cookie);
    expect(out.status).toBe(303);
    const after = await fetch(`${berth.url}/`, { headers: { cookie }, redirect: 'manual' });
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toMatch(/^\/login/);
  });

  it('roles are enforced on pages and procedures', async () => {
    await createUser('viewer@example.com', 'viewer');
    const viewer = await login(berth, 'viewer@example.com', 'a-long-password-1');
    expect((await fetch(`${berth.url}/users`, { headers: { cookie: viewer } })).status).toBe(403);
    expect((await fetch(`${berth.url}/tokens`, { headers: { cookie: viewer } })).status).toBe(403);
    expect((await fetch(`${berth.url}/containers`, { headers: { cookie: viewer } })).status).toBe(
      200
    );
    const denied = await trpc(berth, viewer, 'users.create', {
      email: 'y@example.com',
      name: 'y',
      role: 'admin',
      password: 'a-long-password-1'
    });
    expect(denied.status).toBe(403);
    expect((await trpc(berth, viewer, 'system.readiness', undefined, 'query')).status).toBe(200);
    expect((await fetch(`${berth.url}/users`, { headers: { cookie: admin } })).status).toBe(200);
  });

  it('disabling a user ends their sessions and closes their live sockets at once', async () => {
    const id = await createUser('disabled@example.com', 'operator');
    const cookie = await login(berth, 'disabled@example.com', 'a-long-password-1');
    const socket = await connectSocket(berth, cookie);
    const ws = await openRpcWs(berth, { cookie, origin: berth.url });
    const ended = waitFor<{ reason: string }>(socket, 'session.ended');
    const disconnected = waitFor(socket, 'disconnect');
    const wsClosed = closed(ws);
    const res = await trpc(berth, admin, 'users.setDisabled', { userId: id, disabled: true });
    expect(res.status).toBe(200);
    expect(await ended).toEqual({ reason: 'account disabled' });
    await disconnected;
    expect((await wsClosed).code).toBe(4001);
    const page = await fetch(`${berth.url}/`, { headers: { cookie }, redirect: 'manual' });
    expect(page.status).toBe(303);
    // The right password learns the account is disabled (403); a wrong one learns nothing.
    const disabled = await postForm(berth, '/login', {
      email: 'disabled@example.com',
      password: 'a-long-password-1'
    });
    expect(disabled.status).toBe(403);
    expect(await disabled.text()).toContain('This account is disabled');
    const wrong = await postForm(berth, '/login', {
      email: 'disabled@example.com',
      password: 'not-the-password-1'
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('Wrong e-mail address or password');
  });

  it('an admin resetting a password ends that user’s sessions', async () => {
    const id = await createUser('reset@example.com', 'viewer');
    const cookie = await login(berth, 'reset@example.com', 'a-long-password-1');
    const res = await trpc(berth, admin, 'users.resetPassword', {
      userId: id,
      password: 'brand-new-password'
    });
    expect(res.status).toBe(200);
    expect((await fetch(`${berth.url}/`, { headers: { cookie }, redirect: 'manual' })).status).toBe(
      303
    );
    await login(berth, 'reset@example.com', 'brand-new-password');
  });

  it('changing your own password keeps this session and ends the others', async () => {
    await createUser('self@example.com', 'viewer');
    const here = await login(berth, 'self@example.com', 'a-long-password-1');
    const elsewhere = await login(berth, 'self@example.com', 'a-long-password-1');
    const wrong = await trpc(berth, here, 'users.changeOwnPassword', {
      currentPassword: 'nope',
      newPassword: 'a-longer-password-2'
    });
    expect(wrong.status).toBe(400);
    const ok = await trpc(berth, here, 'users.changeOwnPassword', {
      currentPassword: 'a-long-password-1',
      newPassword: 'a-longer-password-2'
    });
    expect(ok.status).toBe(200);
    expect(
      (await fetch(`${berth.url}/`, { headers: { cookie: here }, redirect: 'manual' })).status
    ).toBe(200);
    expect(
      (await fetch(`${berth.url}/`, { headers: { cookie: elsewhere }, redirect: 'manual' })).status
    ).toBe(303);
  });

  it('the last active admin cannot be demoted or disabled', async () => {
    const list = await trpc(berth, admin, 'users.list', undefined, 'query');
    const me = (list.body.result!.data as { id: string; email: string }[]).find(
      (u) => u.email === ADMIN.email
    )!;
    const demote = await trpc(berth, admin, 'users.setRole', { userId: me.id, role: 'viewer' });
    expect(demote.status).toBe(409);
    expect(demote.body.error?.message).toMatch(/at least one active admin/);
  });

  it('user changes are audited with the actor', async () => {
    const audit = await trpc(berth, admin, 'audit.list', { limit: 200 }, 'query');
    const entries = audit.body.result!.data as {
      action: string;
      actorEmail: string | null;
      target: string | null;
    }[];
    expect(entries).toContainEqual(
      expect.objectContaining({
        action: 'user.create',
        actorEmail: ADMIN.email,
        target: 'viewer@example.com'
      })
    );
    expect(entries).toContainEqual(
      expect.objectContaining({ action: 'user.disable', target: 'disabled@example.com' })
    );
    expect(entries).toContainEqual(
      expect.objectContaining({ action: 'logout', actorEmail: ADMIN.email })
    );
    expect(entries).toContainEqual(
      expect.objectContaining({ action: 'user.setup', target: ADMIN.email })
    );
  });

  it('filters the audit log by kind of action and by text, in the database', async () => {
    const list = async (input: Record<string, unknown>) =>
      (await trpc(berth, admin, 'audit.list', { limit: 200, ...input }, 'query')).body.result!
        .data as { action: string; target: string | null }[];
    const users = await list({ action: 'user' });
    expect(users.length).toBeGreaterThan(2);
    expect(users.every((e) => e.action.startsWith('user.'))).toBe(true);
    // A kind is a whole word before the dot: "use" is not "user".
    expect(await list({ action: 'use' })).toEqual([]);
    expect((await list({ action: 'user.disable' })).map((e) => e.target)).toEqual([
      'disabled@example.com'
    ]);
    const found = await list({ search: 'DISABLED@example' });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((e) => JSON.stringify(e).toLowerCase().includes('disabled@example'))).toBe(
      true
    );
    // LIKE's wildcards are taken literally.
    expect(await list({ search: '%_%' })).toEqual([]);
  });
});

describe('first admin through the set-up page', () => {
  it('is offered on loopback while no user exists, then logs the new admin in', async () => {
    const berth = await startBerth();
    try {
      const login = await fetch(`${berth.url}/login`, { redirect: 'manual' });
      expect(login.status).toBe(303);
      expect(login.headers.get('location')).toBe('/setup');
      const mismatch = await setUp(
        berth,
        'first@example.com',
        'First',
        'first-password',
        'other-password'
      );
      expect(mismatch.status).toBe(400);
      const res = await setUp(
        berth,
        'first@example.com',
        'First',
        'first-password',
        'first-password'
      );
      expect(res.status).toBe(303);
      const cookie = sessionCookie(res)!;
      expect((await fetch(`${berth.url}/users`, { headers: { cookie } })).status).toBe(200);
    } finally {
      await berth.stop();
    }
  });
});

describe('login throttling per client address', () => {
  it('slows an address that guesses across many accounts', async () => {
    const berth = await startBerth({ env: ADMIN_ENV });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++)
        statuses.push(
          (await postForm(berth, '/login', { email: `nobody${i}@example.com`, password: 'guess' }))
            .status
        );
      expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true);
      expect(statuses[20]).toBe(429);
      // Even the right password waits: the address is throttled, not just the account.
      expect((await postForm(berth, '/login', ADMIN)).status).toBe(429);
    } finally {
      await berth.stop();
    }
  });
});
