import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actors, buildTestImage, docker, engineDomain, removeLabelled } from './helpers/engine';

const { domain, runId, label, labels } = engineDomain();
const { containers } = domain.engine;
const IMAGE = `berth-test/engine-c-${runId}:v1`;
const NAME = `berth-c-${runId}`;
const engine = 'local';
const ref = { engine, id: NAME };
const create: {
  engine: string;
  image: string;
  exposedPorts: string[];
  portBindings: { port: string; hostPort: string; hostIp?: string }[];
  env: string[];
  labels: Record<string, string>;
  privileged: boolean;
  binds: string[];
  capAdd: string[];
} = {
  engine,
  image: IMAGE,
  exposedPorts: [],
  portBindings: [],
  env: [],
  labels,
  privileged: false,
  binds: [],
  capAdd: []
};

beforeAll(() => buildTestImage(IMAGE, label), 60_000);
afterAll(() => {
  removeLabelled(label);
  domain.close();
});

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe('containers on the real engine', () => {
  it('creates with every field of the spec and lists with filters', async () => {
    const created = await containers.create(actors.operator, {
      ...create,
      name: NAME,
      hostname: 'berth-host',
      exposedPorts: ['8080/tcp'],
      portBindings: [{ port: '80/tcp', hostPort: '0', hostIp: '127.0.0.1' }],
      memory: 64 * 1024 * 1024,
      cpuShares: 512,
      restartPolicy: 'unless-stopped',
      env: ['GREETING=hi'],
      // PID 1 ignores SIGTERM unless it traps it: restart would wait its full 10 s.
      cmd: ['sh', '-c', 'trap "exit 0" TERM; echo hello-out; echo hello-err >&2; sleep 300 & wait']
    });
    expect(created.id).toMatch(/^[a-f0-9]{64}$/);
    const details = (await containers.inspect(actors.viewer, ref)) as {
      Config: { Hostname: string; Env: string[]; ExposedPorts: object; Labels: object };
      HostConfig: {
        Memory: number;
        CpuShares: number;
        RestartPolicy: { Name: string };
        PortBindings: object;
      };
    };
    expect(details.Config.Hostname).toBe('berth-host');
    expect(details.Config.Env).toContain('GREETING=hi');
    expect(Object.keys(details.Config.ExposedPorts).sort()).toEqual(['80/tcp', '8080/tcp']);
    expect(details.HostConfig).toMatchObject({
      Memory: 64 * 1024 * 1024,
      CpuShares: 512,
      RestartPolicy: { Name: 'unless-stopped' },
      PortBindings: { '80/tcp': [{ HostIp: '127.0.0.1', HostPort: '0' }] }
    });
    const byLabel = await containers.list(actors.viewer, {
      engine,
      all: true,
      filters: { label: [label] }
    });
    expect(byLabel.map((c) => c.Names[0])).toEqual([`/${NAME}`]);
    const running = await containers.list(actors.viewer, {
      engine,
      all: true,
      filters: { label: [label], status: ['running'] }
    });
    expect(running).toEqual([]);
    const byAncestor = await containers.list(actors.viewer, {
      engine,
      all: true,
      filters: { ancestor: [IMAGE], name: [NAME] }
    });
    expect(byAncestor).toHaveLength(1);
  });

  it('starts, says so when already started (304), and explains 409s in words', async () => {
    expect(await containers.act(actors.operator, ref, 'start')).toEqual({ changed: true });
    expect(await containers.act(actors.operator, ref, 'start')).toEqual({ changed: false });
    await expect(containers.act(actors.operator, ref, 'unpause')).rejects.toThrow(
      `container ${NAME} is not paused`
    );
    expect(await containers.act(actors.operator, ref, 'pause')).toEqual({ changed: true });
    await expect(containers.act(actors.operator, ref, 'pause')).rejects.toThrow(
      `container ${NAME} is paused: unpause it first`
    );
    expect(await containers.act(actors.operator, ref, 'unpause')).toEqual({ changed: true });
    await expect(
      containers.remove(actors.operator, { ...ref, force: false, v: false })
    ).rejects.toThrow(`container ${NAME} is running: stop it first or force`);
  });

  it('reads logs (raw frames), top, changes, a stats snapshot and runs exec', async () => {
    // The container prints as it starts: read until both lines are in (a loaded engine is slow).
    const readLogs = async () =>
      readAll(
        await containers.logs(actors.viewer, {
          ...ref,
          stdout: true,
          stderr: true,
          follow: false,
          tail: 'all',
          timestamps: true
        })
      );
    let raw = await readLogs();
    for (let i = 0; i < 50 && !(raw.includes('hello-out') && raw.includes('hello-err')); i++) {
      await new Promise((r) => setTimeout(r, 100));
      raw = await readLogs();
    }
    // Not a TTY: frames with an 8-byte header, stream 1 stdout and 2 stderr.
    expect([raw[0], raw.includes('hello-out'), raw.includes('hello-err')]).toEqual([
      expect.any(Number),
      true,
      true
    ]);
    expect([1, 2]).toContain(raw[0]);
    const onlyErr = await readAll(
      await containers.logs(actors.viewer, {
        ...ref,
        stdout: false,
        stderr: true,
        follow: false,
        tail: 10,
        timestamps: false
      })
    );
    expect(onlyErr.includes('hello-out')).toBe(false);
    expect(onlyErr.includes('hello-err')).toBe(true);

    const sleeping = async () =>
      (await containers.top(actors.viewer, ref)).Processes.some((p) =>
        p.join(' ').includes('sleep 300')
      );
    let asleep = await sleeping();
    for (let i = 0; i < 50 && !asleep; i++) {
      await new Promise((r) => setTimeout(r, 100));
      asleep = await sleeping();
    }
    expect(asleep).toBe(true);
    const stats = (await containers.stats(actors.viewer, ref)) as {
      pids_stats: { current: number };
      read: string;
    };
    expect(stats.pids_stats.current).toBeGreaterThan(0);

    const { execId, stream } = await containers.exec(actors.operator, {
      ...ref,
      cmd: ['sh', '-c', 'touch /tmp/made-by-exec; echo exec-says-$((6*7))'],
      tty: false,
      stdin: false
    });
    expect(execId).toMatch(/^[a-f0-9]{64}$/);
    const output = await readAll(stream);
    expect(output.toString('latin1')).toContain('exec-says-42');
    const changes = await containers.changes(actors.viewer, ref);
    expect(changes).toContainEqual({ Path: '/tmp/made-by-exec', Kind: 1 });
  });

  it('runs an interactive exec: stdin in, output out over the hijacked stream', async () => {
    const { stream } = await containers.exec(actors.operator, {
      ...ref,
      cmd: ['sh'],
      tty: true,
      stdin: true
    });
    stream.write('echo sum-$((2+3))\nexit\n');
    const output = (await readAll(stream)).toString('utf8');
    expect(output).toContain('sum-5');
  });

  it('follows logs and honours since', async () => {
    const followed = await containers.logs(actors.viewer, {
      ...ref,
      stdout: true,
      stderr: false,
      follow: true,
      tail: 'all',
      timestamps: false
    });
    const seen = await new Promise<string>((done) => {
      let text = '';
      followed.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if (text.includes('hello-out')) done(text);
      });
    });
    expect(seen).toContain('hello-out');
    // Following: the engine keeps the answer open after the last line.
    await new Promise((r) => setTimeout(r, 300));
    expect(followed.readableEnded).toBe(false);
    followed.destroy();
    const future = await containers.logs(actors.viewer, {
      ...ref,
      stdout: true,
      stderr: true,
      follow: false,
      tail: 'all',
      timestamps: false,
      since: Math.floor(Date.now() / 1000) + 60
    });
    expect((await readAll(future)).length).toBe(0);
  });

  it('restarts, kills with a signal, stops (304 the second time), removes and prunes', async () => {
    expect(await containers.act(actors.operator, ref, 'restart')).toEqual({ changed: true });
    expect(await containers.act(actors.operator, { ...ref, signal: 'SIGKILL' }, 'kill')).toEqual({
      changed: true
    });
    await expect(
      containers.act(actors.operator, { ...ref, signal: 'SIGKILL' }, 'kill')
    ).rejects.toThrow(`container ${NAME} is not running`);
    await containers.act(actors.operator, ref, 'start');
    expect(await containers.act(actors.operator, { ...ref, t: 0 }, 'stop')).toEqual({
      changed: true
    });
    expect(await containers.act(actors.operator, { ...ref, t: 0 }, 'stop')).toEqual({
      changed: false
    });
    await containers.remove(actors.operator, { ...ref, force: false, v: true });
    await expect(containers.inspect(actors.viewer, ref)).rejects.toThrow(
      `no such container ${NAME}`
    );

    const leftover = await containers.create(actors.operator, { ...create, name: `${NAME}-left` });
    const pruned = await containers.prune(actors.operator, { engine, label: [label] });
    expect(pruned.removed).toEqual([leftover.id]);
    const audit = domain.audit.list(100).map((e) => `${e.action} ${e.target}`);
    expect(audit).toContain(`engine.container.create local/container/${NAME}`);
    expect(audit).toContain(`engine.container.stop local/container/${NAME}`);
    expect(audit).toContain('engine.container.prune local/container/*');
  });

  it('names a missing image or container in words, never raw JSON', async () => {
    await expect(
      containers.create(actors.operator, { ...create, image: 'berth-test/no-such-image:nope' })
    ).rejects.toThrow('no such image berth-test/no-such-image:nope');
    await expect(
      containers.act(actors.operator, { engine, id: 'no-such-ctr' }, 'start')
    ).rejects.toThrow('no such container no-such-ctr');
  });
});

describe('least privilege', () => {
  it('refuses host-reaching create options to an operator and allows them to an admin', async () => {
    const cases: [Partial<typeof create> & { networkMode?: string; pidMode?: string }, string][] = [
      [{ privileged: true }, 'privileged mode'],
      [{ binds: ['/etc:/host-etc:ro'] }, 'host-path binds'],
      [{ networkMode: 'host' }, 'the host network'],
      [{ pidMode: 'host' }, 'the host PID namespace'],
      [{ capAdd: ['NET_ADMIN'] }, 'added capabilities']
    ];
    for (const [option, words] of cases)
      await expect(containers.create(actors.operator, { ...create, ...option })).rejects.toThrow(
        `Needs the admin role to use ${words}`
      );
    // A named volume is an operator's to use. Made here with the run's label, so it goes with
    // the rest (the engine would make it unlabelled, and `rm -v` leaves named volumes).
    docker('volume', 'create', '--label', label, `vol-${runId}`);
    const named = await containers.create(actors.operator, {
      ...create,
      binds: [`vol-${runId}:/data`]
    });
    expect(named.id).toMatch(/^[a-f0-9]{64}$/);
    const admin = await containers.create(actors.admin, { ...create, privileged: true });
    const details = (await containers.inspect(actors.viewer, { engine, id: admin.id })) as {
      HostConfig: { Privileged: boolean };
    };
    expect(details.HostConfig.Privileged).toBe(true);
    const audit = domain.audit.list(10).find((e) => e.target === `local/container/${admin.id}`);
    expect(audit?.detail).toMatchObject({ hostReaching: ['privileged mode'] });
  });

  it('lets a viewer read but not write', async () => {
    await expect(
      containers.list(actors.viewer, { engine, all: true, filters: {} })
    ).resolves.toBeInstanceOf(Array);
    await expect(containers.act(actors.viewer, ref, 'start')).rejects.toThrow(
      'Needs the operator role'
    );
    await expect(containers.prune(actors.viewer, { engine })).rejects.toThrow(
      'Needs the operator role'
    );
  });

  it('refuses identifiers that could reach another path', async () => {
    for (const id of [
      '../../plugins',
      'web?x=1',
      'web%2f..',
      'a\u0000b',
      '/swarm',
      'web/../../secrets'
    ])
      await expect(containers.inspect(actors.viewer, { engine, id })).rejects.toThrow(
        /is not a valid container name or id/
      );
    await expect(
      domain.engine.images.inspect(actors.viewer, { engine, name: 'busybox/../../../plugins' })
    ).rejects.toThrow(/is not a valid image name or id/);
    await expect(
      domain.engine.images.inspect(actors.viewer, { engine, name: 'busybox:latest?force=1' })
    ).rejects.toThrow(/is not a valid image name or id/);
    await expect(
      domain.engine.images.inspect(actors.viewer, {
        engine,
        name: `localhost:5000/team/app:1.0@sha256:${'a'.repeat(64)}`
      })
    ).rejects.toThrow(/no such image/);
  });
});
