import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilDone } from '../../src/lib/server/domain/engine/progress';
import { actors, BASE_IMAGE, buildTestImage, engineDomain, removeLabelled } from './helpers/engine';

const { domain, runId, label, labels } = engineDomain();
const { images, networks, volumes, system, containers } = domain.engine;
const engine = 'local';
const IMAGE = `berth-test/engine-r-${runId}:v1`;
const container = {
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

/** A build context as the engine takes it: a tar stream. */
function contextTar(files: Record<string, string>): Readable {
  const dir = mkdtempSync(join(tmpdir(), 'berth-ctx-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const tar = execFileSync('tar', ['-C', dir, '-c', '.']);
  rmSync(dir, { recursive: true, force: true });
  return Readable.from([tar]);
}

describe('images on the real engine', () => {
  it('builds from a tar stream, inspects, shows history and lists', async () => {
    const tag = `berth-test/engine-built-${runId}:v2`;
    const progress = await images.build(
      actors.operator,
      { engine, t: tag, buildfile: 'Build.file', labels },
      contextTar({ 'Build.file': `FROM ${BASE_IMAGE}\nRUN echo built > /built.txt\n` })
    );
    const { last } = await untilDone(progress, `build of ${tag}`);
    expect(last).toMatch(/Successfully tagged|Successfully built/);
    const details = (await images.inspect(actors.viewer, { engine, name: tag })) as {
      RepoTags: string[];
      Config: { Labels: Record<string, string> };
    };
    expect(details.RepoTags).toContain(tag);
    expect(details.Config.Labels['berth.test']).toBe(runId);
    const history = await images.history(actors.viewer, { engine, name: tag });
    expect(history.some((h) => h.CreatedBy.includes('echo built'))).toBe(true);
    const list = await images.list(actors.viewer, { engine });
    expect(list.some((i) => i.RepoTags?.includes(tag))).toBe(true);
  });

  it('reports a failed build step as an error, not as success', async () => {
    const progress = await images.build(
      actors.operator,
      { engine, t: `berth-test/engine-bad-${runId}:v1`, labels },
      contextTar({ Dockerfile: `FROM ${BASE_IMAGE}\nRUN exit 3\n` })
    );
    await expect(untilDone(progress, 'the build')).rejects.toThrow(
      /the build failed: .*returned a non-zero code: 3/
    );
  });

  it('lists dangling images, explains a removal conflict, removes and prunes', async () => {
    const tag = `berth-test/engine-rm-${runId}:v1`;
    buildTestImage(tag, label, 'RUN echo one > /one\n');
    const user = await containers.create(actors.operator, { ...container, image: tag });
    await expect(
      images.remove(actors.operator, { engine, name: tag, force: false, noprune: false })
    ).rejects.toThrow(`image ${tag} is used by a container: remove it or force`);
    await containers.remove(actors.operator, { engine, id: user.id, force: true, v: false });
    // Re-tagging leaves the old build dangling: no tag, only the label.
    buildTestImage(tag, label, 'RUN echo two > /two\n');
    const dangling = await images.list(actors.viewer, { engine, dangling: true });
    const mine = dangling.filter((i) => i.Labels?.['berth.test'] === runId);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((i) => !i.RepoTags?.length || i.RepoTags[0] === '<none>:<none>')).toBe(true);
    const pruned = await images.prune(actors.operator, { engine, label: [label] });
    expect(pruned.removed.length).toBeGreaterThan(0);
    const removed = await images.remove(actors.operator, {
      engine,
      name: tag,
      force: false,
      noprune: false
    });
    expect(removed.some((r) => r.Untagged === tag)).toBe(true);
    await expect(images.inspect(actors.viewer, { engine, name: tag })).rejects.toThrow(
      `no such image ${tag}`
    );
  });
});

describe('networks and volumes on the real engine', () => {
  it('creates a network with IPAM, connects with an address, disconnects, removes, prunes', async () => {
    const name = `berth-net-${runId}`;
    const third = 100 + Math.floor(Math.random() * 100);
    const subnet = `10.${third}.7.0/24`;
    await networks.create(actors.operator, {
      engine,
      name,
      driver: 'bridge',
      subnet,
      gateway: `10.${third}.7.1`,
      labels
    });
    const ctr = await containers.create(actors.operator, {
      ...container,
      name: `berth-netc-${runId}`
    });
    await containers.act(actors.operator, { engine, id: ctr.id }, 'start');
    await networks.connect(actors.operator, {
      engine,
      id: name,
      container: ctr.id,
      ipv4Address: `10.${third}.7.42`
    });
    const inspected = (await networks.inspect(actors.viewer, { engine, id: name })) as {
      IPAM: { Config: { Subnet: string; Gateway: string }[] };
      Containers: Record<string, { IPv4Address: string }>;
    };
    expect(inspected.IPAM.Config).toEqual([{ Subnet: subnet, Gateway: `10.${third}.7.1` }]);
    expect(inspected.Containers[ctr.id]?.IPv4Address).toBe(`10.${third}.7.42/24`);
    await expect(networks.remove(actors.operator, { engine, id: name })).rejects.toThrow(
      `network ${name} still has containers connected`
    );
    await networks.disconnect(actors.operator, {
      engine,
      id: name,
      container: ctr.id,
      force: true
    });
    await networks.remove(actors.operator, { engine, id: name });
    await expect(networks.inspect(actors.viewer, { engine, id: name })).rejects.toThrow(
      `no such network ${name}`
    );
    await networks.create(actors.operator, {
      engine,
      name: `${name}-idle`,
      driver: 'bridge',
      labels
    });
    const list = await networks.list(actors.viewer, { engine });
    expect(list.some((n) => n.Name === `${name}-idle`)).toBe(true);
    const pruned = await networks.prune(actors.operator, { engine, label: [label] });
    expect(pruned.removed).toEqual([`${name}-idle`]);
  });

  it('creates a volume with driver options, inspects, lists with filters, removes, prunes', async () => {
    const name = `berth-vol-${runId}`;
    await volumes.create(actors.operator, {
      engine,
      name,
      driver: 'local',
      driverOpts: { type: 'tmpfs', device: 'tmpfs', o: 'size=1m' },
      labels
    });
    const inspected = await volumes.inspect(actors.viewer, { engine, name });
    expect(inspected).toMatchObject({ Name: name, Driver: 'local', Labels: labels });
    const listed = await volumes.list(actors.viewer, { engine, label: [label] });
    expect(listed.map((v) => v.Name)).toEqual([name]);
    const user = await containers.create(actors.operator, {
      ...container,
      binds: [`${name}:/data`]
    });
    await expect(volumes.remove(actors.operator, { engine, name })).rejects.toThrow(
      `volume ${name} is used by a container`
    );
    await containers.remove(actors.operator, { engine, id: user.id, force: true, v: false });
    await volumes.remove(actors.operator, { engine, name });
    await expect(volumes.inspect(actors.viewer, { engine, name })).rejects.toThrow(
      `no such volume ${name}`
    );
    await volumes.create(actors.operator, {
      engine,
      name: `${name}-idle`,
      driver: 'local',
      driverOpts: {},
      labels
    });
    const pruned = await volumes.prune(actors.operator, { engine, label: [label] });
    expect(pruned.removed).toEqual([`${name}-idle`]);
  });
});

describe('system on the real engine', () => {
  it('answers info, version, ping and disk usage, and lists the engines', async () => {
    const info = (await system.info(actors.viewer, { engine })) as { ServerVersion: string };
    expect(info.ServerVersion).toMatch(/^\d+\./);
    const version = (await system.version(actors.viewer, { engine })) as { ApiVersion: string };
    const ping = await system.ping(actors.viewer, { engine });
    expect(ping).toMatchObject({ status: 'ok', apiVersion: version.ApiVersion });
    const df = (await system.diskUsage(actors.viewer, { engine })) as { Images: unknown[] };
    expect(Array.isArray(df.Images)).toBe(true);
    const engines = await system.engines(actors.viewer);
    expect(engines).toEqual([
      expect.objectContaining({
        name: 'local',
        status: 'ok',
        apiVersion: version.ApiVersion,
        tls: false
      })
    ]);
  });

  it('streams events between since and until, filtered by type and event', async () => {
    const since = Math.floor(Date.now() / 1000) - 1;
    const ctr = await containers.create(actors.operator, { ...container });
    await containers.act(actors.operator, { engine, id: ctr.id }, 'start');
    await containers.act(actors.operator, { engine, id: ctr.id, t: 0 }, 'stop');
    const until = Math.floor(Date.now() / 1000) + 1;
    const stream = await system.events(actors.viewer, {
      engine,
      since,
      until,
      type: ['container'],
      event: ['start']
    });
    let text = '';
    for await (const chunk of stream) text += String(chunk);
    const events = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { Type: string; Action: string; id: string });
    const mine = events.filter((e) => e.id === ctr.id);
    expect(mine.map((e) => `${e.Type} ${e.Action}`)).toEqual(['container start']);
  });

  it('prunes with the four booleans, reporting what went and the space reclaimed', async () => {
    const stopped = await containers.create(actors.operator, { ...container });
    const net = `berth-pnet-${runId}`;
    await networks.create(actors.operator, { engine, name: net, driver: 'bridge', labels });
    const vol = `berth-pvol-${runId}`;
    await volumes.create(actors.operator, {
      engine,
      name: vol,
      driver: 'local',
      driverOpts: {},
      labels
    });
    await expect(
      system.prune(actors.viewer, {
        engine,
        containers: true,
        images: false,
        networks: true,
        volumes: true,
        label: [label]
      })
    ).rejects.toThrow('Needs the operator role');
    const report = await system.prune(actors.operator, {
      engine,
      containers: true,
      images: false,
      networks: true,
      volumes: false,
      label: [label]
    });
    expect(report.removed.containers).toContain(stopped.id);
    expect(report.removed.networks).toEqual([net]);
    expect(report.removed.volumes).toEqual([]);
    expect(report.removed.images).toEqual([]);
    expect(report.spaceReclaimed).toBeGreaterThanOrEqual(0);
    await expect(volumes.inspect(actors.viewer, { engine, name: vol })).resolves.toMatchObject({
      Name: vol
    });
    const audit = domain.audit.list(5)[0];
    expect(audit).toMatchObject({ action: 'engine.system.prune', target: 'local/system/*' });
  });
});
