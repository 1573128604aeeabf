import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, trpc, type Berth } from './helpers/berth';
import { startWithAdmin } from './helpers/console';
import { connectSocket } from './helpers/sockets';

/** Collects one event's payloads on a socket. */
function collect(socket: Socket, event: string): unknown[] {
  const got: unknown[] = [];
  socket.on(event, (payload: unknown) => got.push(payload));
  return got;
}

/**
 * The server answers a socket's events in order, so once an ack arrives, everything the server
 * sent that socket before it has arrived too.
 */
async function settled(...sockets: Socket[]): Promise<void> {
  for (const socket of sockets) await socket.emitWithAck('room.leave', 'nothing');
}

describe('realtime channels', () => {
  let berth: Berth;
  let admin: string;
  let users = 0;
  /** A user change the server audits: one `audit.appended` per call. */
  const audited = async () => {
    users += 1;
    const res = await trpc(berth, admin, 'users.create', {
      email: `u${users}@example.com`,
      name: `u${users}`,
      role: 'viewer',
      password: 'a-long-password-1'
    });
    expect(res.status).toBe(200);
    return res.body.result?.data as { id: string };
  };

  beforeAll(async () => ({ berth, admin } = await startWithAdmin()));
  afterAll(() => berth.stop());

  it('members share one source: it feeds every member once, and restarts after the last leaves', async () => {
    const a = await connectSocket(berth, admin);
    const b = await connectSocket(berth, admin);
    let c: Socket | undefined;
    try {
      const gotA = collect(a, 'audit.appended');
      const gotB = collect(b, 'audit.appended');
      expect(await a.emitWithAck('room.join', 'audit')).toEqual({ ok: true });
      expect(await b.emitWithAck('room.join', 'audit')).toEqual({ ok: true });
      expect(await b.emitWithAck('room.join', 'audit')).toEqual({ ok: true });
      await audited();
      await settled(a, b);
      expect([gotA.length, gotB.length]).toEqual([1, 1]);

      expect(await a.emitWithAck('room.leave', 'audit')).toEqual({ ok: true });
      await audited();
      await settled(a, b);
      expect([gotA.length, gotB.length]).toEqual([1, 2]);

      // The last member goes by disconnecting; a new member gets a fresh source, and only one:
      // a source left running would deliver each entry twice.
      b.close();
      await audited();
      c = await connectSocket(berth, admin);
      const gotC = collect(c, 'audit.appended');
      expect(await c.emitWithAck('room.join', 'audit')).toEqual({ ok: true });
      await audited();
      await audited();
      await settled(c);
      expect(gotC).toHaveLength(2);
    } finally {
      a.close();
      b.close();
      c?.close();
    }
  });

  it("joins follow the user's current role, and a lowered role leaves channels at once", async () => {
    const user = await audited();
    await trpc(berth, admin, 'users.setRole', { userId: user.id, role: 'admin' });
    const cookie = await login(berth, `u${users}@example.com`, 'a-long-password-1');
    const socket = await connectSocket(berth, cookie);
    try {
      const got = collect(socket, 'audit.appended');
      expect(await socket.emitWithAck('room.join', 'audit')).toEqual({ ok: true });
      expect(await socket.emitWithAck('room.join', 'agents')).toEqual({ ok: true });
      await trpc(berth, admin, 'users.setRole', { userId: user.id, role: 'viewer' });
      await settled(socket);
      got.length = 0; // the demotion's own entry is written while the role still holds
      await audited();
      await settled(socket);
      expect(got).toEqual([]);
      expect(await socket.emitWithAck('room.join', 'audit')).toEqual({
        ok: false,
        error: 'the audit room needs the admin role'
      });
      expect(await socket.emitWithAck('room.join', 'agents')).toEqual({ ok: true });

      // Raised again: the same socket may join without reconnecting.
      await trpc(berth, admin, 'users.setRole', { userId: user.id, role: 'admin' });
      expect(await socket.emitWithAck('room.join', 'audit')).toEqual({ ok: true });
      await audited();
      await settled(socket);
      expect(got).toHaveLength(1);
    } finally {
      socket.close();
    }
  });

  it('refuses malformed channel names', async () => {
    const socket = await connectSocket(berth, admin);
    try {
      expect(await socket.emitWithAck('room.join', 'agents:x')).toEqual({
        ok: false,
        error: 'agents:x is not a valid agents channel'
      });
      expect(await socket.emitWithAck('room.join', 'a'.repeat(500))).toEqual({
        ok: false,
        error: 'the channel name is too long'
      });
      expect(await socket.emitWithAck('room.join', { kind: 'audit' })).toEqual({
        ok: false,
        error: 'unknown room'
      });
      expect(await socket.emitWithAck('room.join', 'container.logs:abc')).toEqual({
        ok: false,
        error: 'container.logs:abc is not a valid container.logs channel'
      });
      expect(await socket.emitWithAck('room.join', 'no.such.kind:abc')).toEqual({
        ok: false,
        error: 'unknown room'
      });
    } finally {
      socket.close();
    }
  });
});
