import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trpc, type Berth } from './helpers/berth';
import { signInAs, startWithAdmin } from './helpers/console';

const config = `
skills:
  - id: from-file
    kind: http
    description: Declared in berth.yaml
    url: https://status.example/api
  - id: clash
    kind: http
    description: The file's clash
    url: https://file.example/api
`;

type Data = Record<string, unknown>;

const definition = (id: string, description = 'made in the console') => ({
  id,
  kind: 'container',
  description,
  image: 'berth-test/busybox:latest',
  command: ['cat'],
  paramsSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }
});

describe('skills from the console (tRPC skills.*)', () => {
  let berth: Berth;
  let admin: string;
  let operator: string;
  let viewer: string;
  const call = (cookie: string, path: string, input?: unknown, kind?: 'query' | 'mutation') =>
    trpc(berth, cookie, path, input, kind);
  const ok = async <T = Data>(
    cookie: string,
    path: string,
    input?: unknown,
    kind: 'query' | 'mutation' = 'mutation'
  ): Promise<T> => {
    const res = await call(cookie, path, input, kind);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result!.data as T;
  };
  const list = () => ok<Data[]>(viewer, 'skills.list', undefined, 'query');

  beforeAll(async () => {
    ({ berth, admin } = await startWithAdmin({ config }));
    operator = await signInAs(berth, admin, 'operator');
    viewer = await signInAs(berth, admin, 'viewer');
  });
  afterAll(async () => {
    await berth?.stop();
  });

  it('lists builtin and file skills; saves, updates and removes a console skill at once', async () => {
    const before = await list();
    expect(before.find((s) => s.id === 'echo')).toMatchObject({ source: 'builtin' });
    expect(before.find((s) => s.id === 'from-file')).toMatchObject({
      source: 'file',
      kind: 'http',
      definition: { url: 'https://status.example/api', timeoutMs: 30000 }
    });

    expect((await call(viewer, 'skills.save', { definition: definition('shout') })).status).toBe(
      403
    );
    const saved = await ok(operator, 'skills.save', { definition: definition('shout') });
    expect(saved).toMatchObject({ id: 'shout', source: 'database', kind: 'container' });

    await ok(operator, 'skills.save', { definition: definition('shout', 'changed') });
    expect((await list()).find((s) => s.id === 'shout')).toMatchObject({
      description: 'changed',
      definition: { memoryMb: 256, network: false }
    });

    await ok(operator, 'skills.remove', { id: 'shout' });
    expect((await list()).some((s) => s.id === 'shout')).toBe(false);
    const gone = await call(operator, 'skills.remove', { id: 'shout' });
    expect(gone.body.error?.data.code).toBe('NOT_FOUND');
  });

  it('refuses to change builtin and file skills, naming why', async () => {
    const builtin = await call(operator, 'skills.save', { definition: definition('echo') });
    expect(builtin.body.error?.data.code).toBe('BAD_REQUEST');
    expect(builtin.body.error?.message).toContain('built into Berth');
    const file = await call(operator, 'skills.save', { definition: definition('from-file') });
    expect(file.body.error?.message).toContain('declared in the config file');
    const removeFile = await call(operator, 'skills.remove', { id: 'from-file' });
    expect(removeFile.body.error?.message).toContain('remove it there');
    const badSchema = await call(operator, 'skills.save', {
      definition: {
        ...definition('bad'),
        paramsSchema: { type: 'object', properties: { a: { type: 'nonsense' } } }
      }
    });
    expect(badSchema.body.error?.message).toBe(
      'definition.paramsSchema: Unsupported type: nonsense'
    );
  });

  it('pages runs newest first, reads one, and refuses params failing the schema', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await ok<{ runId: string }>(operator, 'skills.trigger', { id: 'echo', params: { i } }))
          .runId
      );
    const first = await ok<{ runs: Data[]; nextCursor: string | null }>(
      viewer,
      'skills.runs',
      { skillId: 'echo', limit: 2 },
      'query'
    );
    expect(first.runs.map((r) => r.runId)).toEqual([ids[2], ids[1]]);
    const second = await ok<{ runs: Data[]; nextCursor: string | null }>(
      viewer,
      'skills.runs',
      { skillId: 'echo', limit: 2, cursor: first.nextCursor },
      'query'
    );
    expect(second.runs.map((r) => r.runId)).toEqual([ids[0]]);
    expect(second.nextCursor).toBeNull();
    const run = await ok(viewer, 'skills.getRun', { runId: ids[0] }, 'query');
    expect(run).toMatchObject({
      skillId: 'echo',
      trigger: 'console',
      actor: 'operator@example.com'
    });

    await ok(operator, 'skills.save', { definition: definition('needs-text') });
    const refused = await call(operator, 'skills.trigger', { id: 'needs-text', params: {} });
    expect(refused.body.error?.data.code).toBe('BAD_REQUEST');
    expect(refused.body.error?.message).toContain('params.text');
  });
});
