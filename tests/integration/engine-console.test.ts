import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trpc, type Berth } from './helpers/berth';
import { signInAs, startWithAdmin } from './helpers/console';
import { buildTestImage, removeLabelled } from './helpers/engine';

/** The engine through the console's own API (tRPC) on a started Berth: roles and wording. */
const runId = `r${Date.now().toString(36)}c`;
const label = `berth.test=${runId}`;
const IMAGE = `berth-test/engine-t-${runId}:v1`;
const NAME = `berth-t-${runId}`;
let berth: Berth;
let admin: string;
let operator: string;
let viewer: string;

beforeAll(async () => {
  buildTestImage(IMAGE, label);
  ({ berth, admin } = await startWithAdmin());
  operator = await signInAs(berth, admin, 'operator');
  viewer = await signInAs(berth, admin, 'viewer');
}, 60_000);

afterAll(async () => {
  removeLabelled(label);
  await berth?.stop();
});

const create = { image: IMAGE, labels: { 'berth.test': runId } };

describe('engine operations over tRPC', () => {
  it('lists engines with their API version and containers for a viewer', async () => {
    const engines = await trpc(berth, viewer, 'engine.system.engines', undefined, 'query');
    const [local, ...others] = engines.body.result?.data as {
      name: string;
      status: string;
      apiVersion: string;
    }[];
    expect([local?.name, local?.status, others]).toEqual(['local', 'ok', []]);
    expect(local?.apiVersion).toMatch(/^1\.\d+$/);
    const list = await trpc(
      berth,
      viewer,
      'engine.containers.list',
      { filters: { label: [label] } },
      'query'
    );
    expect(list.status).toBe(200);
    expect(list.body.result?.data).toEqual([]);
  });

  it('refuses a forged write from a viewer and host-reaching options from an operator', async () => {
    const forged = await trpc(berth, viewer, 'engine.containers.create', { ...create, name: NAME });
    expect(forged.status).toBe(403);
    const privileged = await trpc(berth, operator, 'engine.containers.create', {
      ...create,
      privileged: true
    });
    expect(privileged.status).toBe(403);
    expect(privileged.body.error?.message).toBe('Needs the admin role to use privileged mode');
    const listed = await trpc(
      berth,
      viewer,
      'engine.containers.list',
      { filters: { label: [label] } },
      'query'
    );
    expect(listed.body.result?.data).toEqual([]);
  });

  it('creates, starts (304 is no failure), explains 404 and 409 in words, audits', async () => {
    const created = await trpc(berth, operator, 'engine.containers.create', {
      ...create,
      name: NAME
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(
      (await trpc(berth, operator, 'engine.containers.start', { id: NAME })).body.result?.data
    ).toEqual({
      changed: true
    });
    const again = await trpc(berth, operator, 'engine.containers.start', { id: NAME });
    expect([again.status, again.body.result?.data]).toEqual([200, { changed: false }]);
    const running = await trpc(berth, operator, 'engine.containers.remove', { id: NAME });
    expect([running.status, running.body.error?.message]).toEqual([
      409,
      `container ${NAME} is running: stop it first or force`
    ]);
    const missing = await trpc(
      berth,
      viewer,
      'engine.containers.inspect',
      { id: 'no-such-ctr' },
      'query'
    );
    expect([missing.status, missing.body.error?.message]).toEqual([
      404,
      'no such container no-such-ctr'
    ]);
    const gone = await trpc(berth, operator, 'engine.containers.remove', { id: NAME, force: true });
    expect(gone.status).toBe(200);
    const audit = await trpc(berth, admin, 'audit.list', { limit: 20 }, 'query');
    const actions = (
      audit.body.result?.data as { action: string; target: string; actorEmail: string }[]
    ).map((e) => `${e.actorEmail} ${e.action} ${e.target}`);
    expect(actions).toContain(
      `operator@example.com engine.container.create local/container/${NAME}`
    );
    expect(actions).toContain(
      `operator@example.com engine.container.remove local/container/${NAME}`
    );
  });

  it('refuses identifiers that would reach another engine path, and unknown engines', async () => {
    for (const id of ['../../plugins', 'x?y=1', '%2e%2e', 'swarm/../secrets'])
      expect((await trpc(berth, viewer, 'engine.containers.inspect', { id }, 'query')).status).toBe(
        400
      );
    const image = await trpc(
      berth,
      viewer,
      'engine.images.inspect',
      { name: '../../../secrets' },
      'query'
    );
    expect(image.status).toBe(400);
    const nowhere = await trpc(berth, viewer, 'engine.system.info', { engine: 'nowhere' }, 'query');
    expect([nowhere.status, nowhere.body.error?.message]).toEqual([404, 'no engine named nowhere']);
  });
});
