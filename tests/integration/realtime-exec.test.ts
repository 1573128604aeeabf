import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { PullLayer } from '../../src/lib/contracts/exec';
import { freePort, login, trpc, type Berth } from './helpers/berth';
import { createUser, PASSWORD, signInAs, startWithAdmin } from './helpers/console';
import { buildTestImage, removeLabelled, runContainer } from './helpers/engine-streams';
import { connectSocket, waitFor } from './helpers/sockets';

const LABEL = `exec-${process.pid}`;
const docker = (...args: string[]) =>
  execFileSync('docker', args, { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] }).trim();

/** Everything a socket's exec session printed, as one text. */
function outputOf(socket: Socket, execId: () => string | undefined) {
  const got = { text: '' };
  socket.on('exec.output', (o: { execId: string; data: string }) => {
    if (o.execId === execId()) got.text += o.data;
  });
  return got;
}

async function until(test: () => boolean, what: string, ms = 8000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

/** The engine's own exec inspect, asked on its socket directly (not through Berth). */
function execRunning(execId: string): boolean {
  const answer = execFileSync(
    'curl',
    ['-s', '--unix-socket', '/var/run/docker.sock', `http://engine/exec/${execId}/json`],
    { encoding: 'utf8' }
  );
  return (JSON.parse(answer) as { Running: boolean }).Running;
}

describe('exec sessions over socket.io', () => {
  let berth: Berth;
  let admin: string;
  let operator: string;
  let viewer: string;
  let image: string;
  let container: string;

  beforeAll(async () => {
    image = buildTestImage(LABEL);
    container = runContainer(image, LABEL, 'sleep 120');
    ({ berth, admin } = await startWithAdmin());
    operator = await signInAs(berth, admin, 'operator');
    viewer = await signInAs(berth, admin, 'viewer');
  });
  afterAll(async () => {
    await berth?.stop();
    removeLabelled(LABEL, image);
  });

  it('an operator runs sh, types, reads the output, resizes and closes; audited', async () => {
    const socket = await connectSocket(berth, operator);
    let execId: string | undefined;
    const out = outputOf(socket, () => execId);
    try {
      const started = (await socket.emitWithAck('exec.start', {
        engine: 'local',
        container,
        cols: 80,
        rows: 24
      })) as { ok: boolean; execId: string };
      expect(started.ok).toBe(true);
      expect(started.execId).toMatch(/^[a-f0-9]{64}$/);
      execId = started.execId;
      socket.emit('exec.input', { execId, data: 'echo h""i\n' });
      // The typed line echoes as `echo h""i`; only the command's output reads `hi` alone.
      await until(() => /(^|\n)hi\r?\n/.test(out.text), 'hi');

      expect(await socket.emitWithAck('exec.resize', { execId, cols: 120, rows: 40 })).toEqual({
        ok: true
      });
      socket.emit('exec.input', { execId, data: 'stty size\n' });
      await until(() => out.text.includes('40 120'), 'the new size');

      const ended = waitFor<{ execId: string; reason: string }>(socket, 'exec.ended');
      expect(await socket.emitWithAck('exec.close', { execId })).toEqual({ ok: true });
      expect(await ended).toEqual({ execId, reason: 'closed' });
      await until(() => !execRunning(execId!), 'the exec to end in the engine');

      const audit = await trpc(berth, admin, 'audit.list', { limit: 20 }, 'query');
      const actions = (audit.body.result?.data as { action: string; actorEmail: string }[]).map(
        (e) => `${e.actorEmail} ${e.action}`
      );
      expect(actions).toContain('operator@example.com engine.container.exec');
    } finally {
      socket.close();
    }
  });

  it('reports the exit code when the command exits', async () => {
    const socket = await connectSocket(berth, operator);
    try {
      const { execId } = (await socket.emitWithAck('exec.start', {
        engine: 'local',
        container,
        cols: 80,
        rows: 24
      })) as { execId: string };
      const ended = waitFor<{ exitCode?: number; reason: string }>(socket, 'exec.ended');
      socket.emit('exec.input', { execId, data: 'exit 3\n' });
      expect(await ended).toEqual({ execId, exitCode: 3, reason: 'the command exited' });
    } finally {
      socket.close();
    }
  });

  it('closing the socket ends the exec in the engine', async () => {
    const socket = await connectSocket(berth, operator);
    const { execId } = (await socket.emitWithAck('exec.start', {
      engine: 'local',
      container,
      cols: 80,
      rows: 24
    })) as { execId: string };
    expect(execRunning(execId)).toBe(true);
    socket.close();
    await until(() => !execRunning(execId), 'the exec to end in the engine');
  });

  it('closing the socket ends a shell that was still starting when the keys were sent', async () => {
    // The first interrupt and end of input reach the terminal while `sleep` runs (the interrupt
    // ignored); the interactive shell that follows switches the terminal to raw mode, which turns
    // the waiting end of input to nothing. Only the keys typed again end it.
    const socket = await connectSocket(berth, operator);
    const cmd = ['sh', '-c', 'trap "" INT; sleep 1; exec sh -i'];
    const { execId } = (await socket.emitWithAck('exec.start', {
      engine: 'local',
      container,
      cmd,
      cols: 80,
      rows: 24
    })) as { execId: string };
    socket.close();
    // Typed once, the keys are lost and the shell runs on for good: this times out.
    await until(() => !execRunning(execId), 'the shell to end in the engine');
  });

  it('a socket that stops reading pauses the command, not server memory; nothing is lost', async () => {
    const total = 40_000_000;
    const ws = new WebSocket(
      `${berth.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`,
      { headers: { cookie: operator, origin: berth.url } }
    );
    let connected = false;
    let received = 0;
    let ended: { exitCode?: number } | null = null;
    const acks: unknown[] = [];
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text === '2') return ws.send('3'); // engine.io ping
      if (text.startsWith('40')) return void (connected = true);
      if (text.startsWith('43')) return acks.push(JSON.parse(text.slice(3)));
      if (!text.startsWith('42')) return;
      const [event, payload] = JSON.parse(text.slice(2)) as [string, Record<string, unknown>];
      if (event === 'exec.output')
        received += (payload.data as string).replaceAll(/[^x]/g, '').length;
      if (event === 'exec.ended') ended = payload;
    });
    try {
      await new Promise((done, fail) => ws.once('open', done).once('error', fail));
      ws.send('40');
      await until(() => connected, 'the connect answer');
      const cmd = ['sh', '-c', `usleep 300000; head -c ${total} /dev/zero | tr '\\0' x`];
      ws.send(`421${JSON.stringify(['exec.start', { container, cmd, cols: 80, rows: 24 }])}`);
      await until(() => acks.length === 1, 'the start ack');
      const { execId } = (acks[0] as [{ execId: string }])[0];
      ws.pause(); // reads nothing more: the server's buffers fill
      await new Promise((done) => setTimeout(done, 2500));
      // The command is held back by the engine stream's pause, not read into Berth's memory.
      expect(execRunning(execId)).toBe(true);
      expect(received).toBeLessThan(total / 2);
      ws.resume();
      await until(() => ended !== null, 'exec.ended', 30_000);
      expect(received).toBe(total);
      expect(ended).toEqual({ execId, exitCode: 0, reason: 'the command exited' });
    } finally {
      ws.close();
    }
  });

  it('a user who loses the operator role has the session ended at once', async () => {
    const email = 'demoted@example.com';
    const userId = await createUser(berth, admin, email, 'operator');
    const socket = await connectSocket(berth, await login(berth, email, PASSWORD));
    try {
      const { execId } = (await socket.emitWithAck('exec.start', {
        engine: 'local',
        container,
        cols: 80,
        rows: 24
      })) as { execId: string };
      const ended = waitFor<{ reason: string }>(socket, 'exec.ended');
      await trpc(berth, admin, 'users.setRole', { userId, role: 'viewer' });
      expect(await ended).toEqual({ execId, reason: 'the operator role was taken away' });
      await until(() => !execRunning(execId), 'the exec to end in the engine');
    } finally {
      socket.close();
    }
  });

  it('refuses a viewer, a bad request and an unknown container, in words', async () => {
    const socket = await connectSocket(berth, viewer);
    const ops = await connectSocket(berth, operator);
    try {
      expect(
        await socket.emitWithAck('exec.start', { engine: 'local', container, cols: 80, rows: 24 })
      ).toEqual({ ok: false, error: 'Needs the operator role to run commands in a container' });
      expect(
        await ops.emitWithAck('exec.start', {
          engine: 'local',
          container: '../../info',
          cols: 80,
          rows: 24
        })
      ).toEqual({ ok: false, error: 'invalid exec request' });
      const missing = (await ops.emitWithAck('exec.start', {
        engine: 'local',
        container: `missing-${LABEL}`,
        cols: 80,
        rows: 24
      })) as { ok: boolean; error: string };
      expect(missing.ok).toBe(false);
      expect(missing.error).toContain(`missing-${LABEL}`);
    } finally {
      socket.close();
      ops.close();
    }
  });
});

describe('image pull progress over socket.io', () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-exec-registry-'));
  let registry: ChildProcess;
  let berth: Berth;
  let admin: string;
  let operator: string;
  let viewer: string;
  let remote = '';

  beforeAll(async () => {
    const port = await freePort();
    const server = `127.0.0.1:${port}`;
    remote = `${server}/berth-test/progress-${process.pid}`;
    writeFileSync(
      join(dir, 'config.yml'),
      [
        'version: 0.1',
        'log: { level: error }',
        `storage: { filesystem: { rootdirectory: ${join(dir, 'data')} } }`,
        `http: { addr: "${server}" }`,
        ''
      ].join('\n')
    );
    registry = spawn('/usr/bin/docker-registry', ['serve', join(dir, 'config.yml')], {
      stdio: 'ignore'
    });
    for (let i = 0; i < 100; i++) {
      const ok = await fetch(`http://${server}/v2/`).then(
        (r) => r.ok,
        () => false
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // A layer of its own, gone from the engine once pushed and untagged: the pull downloads it.
    execFileSync('docker', ['build', '-q', '-t', `${remote}:v1`, '-'], {
      input: `FROM berth-test/busybox:latest\nLABEL berth.test=${LABEL}-pull\nRUN echo ${process.pid}-${Date.now()} > /marker\n`,
      env: { ...process.env, DOCKER_BUILDKIT: '0' },
      stdio: ['pipe', 'ignore', 'pipe']
    });
    docker('push', `${remote}:v1`);
    docker('rmi', `${remote}:v1`);
    ({ berth, admin } = await startWithAdmin());
    operator = await signInAs(berth, admin, 'operator');
    viewer = await signInAs(berth, admin, 'viewer');
  }, 60_000);
  afterAll(async () => {
    await berth?.stop();
    registry?.kill();
    try {
      docker('rmi', '-f', `${remote}:v1`);
    } catch {
      // not pulled
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('streams layer progress, then done; the image is there', async () => {
    const socket = await connectSocket(berth, operator);
    try {
      const progress: PullLayer[][] = [];
      socket.on('image.pull.progress', (p: { layers: PullLayer[] }) => progress.push(p.layers));
      const done = waitFor<{ ok: boolean }>(socket, 'image.pull.done', 30_000);
      expect(
        await socket.emitWithAck('image.pull', { engine: 'local', ref: remote, tag: 'v1' })
      ).toEqual({ ok: true });
      expect(await done).toEqual({ ref: `${remote}:v1`, ok: true });
      const last = progress.at(-1) ?? [];
      expect(last.length).toBeGreaterThan(0);
      expect(last.every((l) => /^[a-f0-9]{12}$/.test(l.id))).toBe(true);
      expect(last.map((l) => l.status)).toContain('Pull complete');
      expect(docker('image', 'inspect', '-f', '{{.Id}}', `${remote}:v1`)).toMatch(/^sha256:/);
    } finally {
      socket.close();
    }
  });

  it('refuses a viewer; a missing image ends in words', async () => {
    const socket = await connectSocket(berth, viewer);
    const ops = await connectSocket(berth, operator);
    try {
      expect(
        await socket.emitWithAck('image.pull', { engine: 'local', ref: remote, tag: 'v1' })
      ).toEqual({ ok: false, error: 'Needs the operator role to pull images' });
      const done = waitFor<{ ok: boolean; error: string }>(ops, 'image.pull.done', 30_000);
      expect(
        await ops.emitWithAck('image.pull', { engine: 'local', ref: remote, tag: 'nope' })
      ).toEqual({ ok: true });
      const failed = await done;
      expect(failed.ok).toBe(false);
      expect(failed.error).toContain(`${remote}:nope`);
      expect(failed.error).not.toMatch(/[{}]/);
    } finally {
      socket.close();
      ops.close();
    }
  });
});
