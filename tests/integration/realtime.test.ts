import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trpc, type Berth } from './helpers/berth';
import { signInAs, startWithAdmin } from './helpers/console';
import { closed, connectSocket, openRpcWs, rpcCall, waitFor } from './helpers/sockets';

describe('realtime handshakes and rooms', () => {
  let berth: Berth;
  let admin: string;
  let viewer: string;
  beforeAll(async () => {
    ({ berth, admin } = await startWithAdmin());
    viewer = await signInAs(berth, admin, 'viewer', 'v@example.com');
  });
  afterAll(() => berth.stop());

  it('socket.io refuses a handshake without a session or from another origin', async () => {
    await expect(connectSocket(berth)).rejects.toThrow(/unauthorized/);
    await expect(connectSocket(berth, admin, 'http://evil.example')).rejects.toThrow();
    await expect(
      connectSocket(berth, 'berth_session=aaaaaaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbb')
    ).rejects.toThrow(/unauthorized/);
  });

  it('rooms are joined by role, and admins receive audit entries live', async () => {
    const viewerSocket = await connectSocket(berth, viewer);
    const adminSocket = await connectSocket(berth, admin);
    try {
      const denied = (await viewerSocket.emitWithAck('room.join', 'audit')) as {
        ok: boolean;
        error?: string;
      };
      expect(denied).toEqual({ ok: false, error: 'the audit room needs the admin role' });
      const unknown = (await adminSocket.emitWithAck('room.join', '__proto__')) as { ok: boolean };
      expect(unknown.ok).toBe(false);
      expect(await adminSocket.emitWithAck('room.join', 'audit')).toEqual({ ok: true });
      const entry = waitFor<{ action: string; target: string }>(adminSocket, 'audit.appended');
      await trpc(berth, admin, 'users.create', {
        email: 'live@example.com',
        name: 'live',
        role: 'viewer',
        password: 'a-long-password-1'
      });
      expect(await entry).toMatchObject({ action: 'user.create', target: 'live@example.com' });
    } finally {
      viewerSocket.close();
      adminSocket.close();
    }
  });

  it('/rpc/ws takes a console session only from this origin, and speaks JSON-RPC 2.0', async () => {
    // Without credentials (or with a cookie from another origin) the socket opens, but the first
    // frame must authenticate with an RPC token; anything else is refused and the socket closed.
    const attempts: Record<string, string>[] = [
      {},
      { cookie: admin, origin: 'http://evil.example' }
    ];
    for (const headers of attempts) {
      const anon = await openRpcWs(berth, headers);
      const anonClosed = closed(anon);
      expect(
        await rpcCall(anon, '{"jsonrpc":"2.0","method":"agent.list","params":{},"id":"a0"}')
      ).toMatchObject({ id: 'a0', error: { code: -32000 } });
      expect((await anonClosed).code).toBe(4001);
    }
    const ws = await openRpcWs(berth, { cookie: admin, origin: berth.url });
    try {
      expect(
        await rpcCall(ws, '{"jsonrpc":"2.0","method":"agent.list","params":{},"id":"a1"}')
      ).toMatchObject({
        jsonrpc: '2.0',
        id: 'a1',
        result: { agents: [{ name: 'main' }] }
      });
      expect(await rpcCall(ws, '{not json')).toMatchObject({ id: null, error: { code: -32700 } });
      expect(await rpcCall(ws, '[]')).toMatchObject({ id: null, error: { code: -32600 } });
      expect(await rpcCall(ws, '{"jsonrpc":"2.0","method":"x","id":1.5}')).toMatchObject({
        id: null,
        error: { code: -32600 }
      });
    } finally {
      ws.close();
    }
    // A console viewer may read, not act.
    const viewerWs = await openRpcWs(berth, { cookie: viewer, origin: berth.url });
    try {
      expect(
        await rpcCall(viewerWs, '{"jsonrpc":"2.0","method":"session.list","params":{},"id":1}')
      ).toMatchObject({ result: { sessions: [] } });
      expect(
        await rpcCall(
          viewerWs,
          '{"jsonrpc":"2.0","method":"agent.sendMessage","params":{"agentName":"main","message":"x"},"id":2}'
        )
      ).toMatchObject({
        error: { code: -32001, data: { detail: 'not permitted to call agent.sendMessage' } }
      });
    } finally {
      viewerWs.close();
    }
  });

  it('other upgrade paths are refused', async () => {
    const res = await fetch(`${berth.url}/elsewhere`, {
      headers: { connection: 'Upgrade', upgrade: 'websocket' }
    }).catch(() => null);
    expect(res === null || res.status === 404).toBe(true);
  });
});
