import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trpc, type Berth } from './helpers/berth';
import { berthConfig, OPS, rpcToken } from './helpers/config';
import { startWithAdmin } from './helpers/console';
import { buildTestImage, removeLabelled } from './helpers/engine';
import {
  startFakeOpenAi,
  textAnswer,
  toolCallAnswer,
  type FakeOpenAi
} from './helpers/fake-openai';
import { callRpc } from './helpers/rpc';
import {
  containerEvents,
  containersLabelled,
  startRecordingServer,
  type RecordingServer
} from './helpers/skill-fixtures';
import { sendMessage, settledTurn } from './helpers/turns';

/**
 * An agent on the openai provider (a local fake of the wire protocol) whose model calls a
 * container skill (run on the real engine, from an image labelled berth.test=<run id>) and an
 * http skill (against a server of this test on loopback) as tools in one answer.
 */
const RUN = `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const LABEL = `berth.test=${RUN}`;
const IMAGE = `berth-test/skill-tools-${RUN}:1`;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

type Json = Record<string, unknown>;
type WireMessage = { role: string; content: string | null; tool_call_id?: string } & Json;
type Run = {
  runId: string;
  skillId: string;
  status: string;
  trigger: string;
  actor: string | null;
  params: Json;
  error: string | null;
  durationMs: number | null;
};

describe('a turn whose model calls container and http skills as tools', () => {
  let fake: FakeOpenAi;
  let endpoint: RecordingServer;
  let berth: Berth;
  let admin: string;

  beforeAll(async () => {
    buildTestImage(IMAGE, LABEL);
    fake = await startFakeOpenAi();
    endpoint = await startRecordingServer();
    ({ berth, admin } = await startWithAdmin({
      config: berthConfig({
        rpcTokens: [rpcToken('ops', OPS)],
        agents: [
          {
            name: 'tooled',
            provider: 'fake',
            skills: ['shout', 'file-incident', 'nap', 'grumble', 'down', 'engine.containers']
          },
          // Its provider's time-out is shorter than the nap skill's: a tool run is not a wait
          // for the model's answer.
          { name: 'brisk', provider: 'brisk', skills: ['nap'] },
          // A nap no time-out ends while the test cancels its turn (however slow the engine).
          { name: 'sleepy', provider: 'fake', skills: ['long-nap'] }
        ],
        providers: {
          fake: { type: 'openai', baseUrl: fake.url, model: 'fake-small', timeoutMs: 5000 },
          brisk: { type: 'openai', baseUrl: fake.url, model: 'fake-small', timeoutMs: 1000 }
        },
        skills: [
          {
            id: 'shout',
            kind: 'container',
            description: 'Upper-cases the JSON it reads on stdin',
            image: IMAGE,
            command: ['sh', '-c', 'tr a-z A-Z'],
            paramsSchema: {
              type: 'object',
              properties: { text: { type: 'string' } },
              required: ['text']
            },
            timeoutMs: 20000
          },
          { id: 'nap', kind: 'container', image: IMAGE, command: ['sleep', '60'], timeoutMs: 1500 },
          {
            id: 'long-nap',
            kind: 'container',
            image: IMAGE,
            command: ['sleep', '60'],
            timeoutMs: 60_000
          },
          {
            id: 'grumble',
            kind: 'container',
            image: IMAGE,
            command: ['sh', '-c', 'echo partial; echo "no such disk: db-9" >&2; exit 3']
          },
          {
            id: 'down',
            kind: 'http',
            method: 'GET',
            url: `http://127.0.0.1:${endpoint.port}/fail`,
            allowPrivate: true
          },
          {
            id: 'file-incident',
            kind: 'http',
            method: 'POST',
            url: `http://127.0.0.1:${endpoint.port}/incidents`,
            body: '{"title": "{params.title}"}',
            allowPrivate: true,
            paramsSchema: {
              type: 'object',
              properties: { title: { type: 'string' } },
              required: ['title']
            }
          }
        ]
      })
    }));
  }, 60_000);
  afterAll(async () => {
    await berth?.stop();
    await fake?.close();
    await endpoint?.close();
    removeLabelled(LABEL);
  });

  /** The runs of a skill, newest first (the console's API). */
  const runsOf = async (skillId: string): Promise<Run[]> => {
    const { body } = await trpc(berth, admin, 'skills.runs', { skillId }, 'query');
    return (body.result!.data as { runs: Run[] }).runs;
  };
  /** The follow-up request's tool messages, by tool_call_id. */
  const toolResults = (request: { body: Json | null }): Record<string, Json> =>
    Object.fromEntries(
      (request.body!.messages as WireMessage[])
        .filter((m) => m.role === 'tool')
        .map((m): [string, Json] => [m.tool_call_id!, JSON.parse(m.content!) as Json])
    );

  it('offers both skills as tools, runs them for real and hands both results back by tool_call_id', async () => {
    const first = fake.requests.length;
    const since = Date.now();
    fake.script(
      toolCallAnswer([
        { name: 'shout', arguments: { text: 'quiet words' } },
        { name: 'file-incident', arguments: { title: 'disk "full" on db-1' } }
      ]),
      textAnswer(['Shouted ', 'and filed.'])
    );
    const sent = await sendMessage(berth, OPS, 'tooled', 'shout and file it', { userId: 'ada' });
    const done = await settledTurn(berth, OPS, sent.turnId, 30_000);
    expect(done).toMatchObject({ state: 'completed', result: 'Shouted and filed.', error: null });

    // The tools offered: valid wire names that map back to the skills, with their schemas.
    const [ask, followUp] = fake.requests.slice(first);
    const tools = (ask!.body!.tools as { function: { name: string; parameters: Json } }[]).map(
      (t) => t.function
    );
    for (const tool of tools) expect(tool.name).toMatch(TOOL_NAME);
    const { result: listed } = await callRpc<{ skills: { id: string }[] }>(
      berth,
      OPS,
      'skill.list'
    );
    const ids = listed!.skills.map((s) => s.id);
    expect(tools.map((t) => t.name)).toEqual([
      'engine_containers',
      'shout',
      'nap',
      'grumble',
      'down',
      'file-incident'
    ]);
    for (const id of ['engine.containers', 'shout', 'nap', 'grumble', 'file-incident', 'down'])
      expect(ids).toContain(id);
    expect(tools.find((t) => t.name === 'shout')!.parameters).toEqual({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text']
    });

    // Both results went back in the follow-up request, matched by the calls' ids.
    const messages = followUp!.body!.messages as WireMessage[];
    expect(messages.at(-3)).toMatchObject({
      role: 'assistant',
      tool_calls: [
        { id: 'call_0', function: { name: 'shout' } },
        { id: 'call_1', function: { name: 'file-incident' } }
      ]
    });
    expect(toolResults(followUp!)).toEqual({
      call_0: { output: { TEXT: 'QUIET WORDS' } },
      call_1: { output: { got: { title: 'disk "full" on db-1' }, url: '/incidents' } }
    });

    // The http endpoint received the templated body, JSON-escaped.
    const call = endpoint.seen.at(-1)!;
    expect(call).toMatchObject({ method: 'POST', url: '/incidents', type: 'application/json' });
    expect(call.body).toBe('{"title": "disk \\"full\\" on db-1"}');

    // Each run recorded with the turn as its trigger and the agent as who ran it.
    const [shouted] = await runsOf('shout');
    const [filed] = await runsOf('file-incident');
    for (const run of [shouted!, filed!])
      expect(run).toMatchObject({
        status: 'completed',
        trigger: `turn:${sent.turnId}`,
        actor: 'tooled'
      });
    expect(shouted!.params).toEqual({ text: 'quiet words' });

    // The container ran on the real engine, labelled with its skill and run, and was removed.
    const events = containerEvents(`berth.skill.run=${shouted!.runId}`, since);
    expect(events.map((e) => e.action)).toEqual(
      expect.arrayContaining(['create', 'start', 'die', 'destroy'])
    );
    expect(events[0]!.attributes).toMatchObject({
      'berth.skill': 'shout',
      'berth.skill.run': shouted!.runId,
      'berth.test': RUN
    });
    expect(containersLabelled(`berth.skill.run=${shouted!.runId}`)).toBe('');
    expect(containersLabelled(LABEL)).toBe('');

    // The session holds both tool messages, in the order called, before the reply.
    const { result: session } = await callRpc<{ messages: { role: string; content: string }[] }>(
      berth,
      OPS,
      'session.get',
      { sessionId: sent.sessionId }
    );
    expect(session!.messages.map((m) => m.role)).toEqual(['user', 'tool', 'tool', 'assistant']);
    expect(
      session!.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content) as Json)
    ).toEqual([
      { skill: 'shout', params: { text: 'quiet words' }, output: { TEXT: 'QUIET WORDS' } },
      {
        skill: 'file-incident',
        params: { title: 'disk "full" on db-1' },
        output: { got: { title: 'disk "full" on db-1' }, url: '/incidents' }
      }
    ]);
  }, 40_000);

  it('tells the model a container skill timed out, and the turn goes on', async () => {
    const first = fake.requests.length;
    const since = Date.now();
    fake.script(
      toolCallAnswer([{ name: 'nap', arguments: {} }]),
      textAnswer(['The nap ', 'ran too long.'])
    );
    const sent = await sendMessage(berth, OPS, 'brisk', 'take a nap');
    const done = await settledTurn(berth, OPS, sent.turnId, 20_000);
    expect(done).toMatchObject({ state: 'completed', result: 'The nap ran too long.' });
    const followUp = fake.requests[first + 1]!;
    expect(toolResults(followUp).call_0).toEqual({ error: 'timed out after 1500 ms' });
    const [run] = await runsOf('nap');
    expect(run).toMatchObject({
      status: 'failed',
      error: 'timed out after 1500 ms',
      trigger: `turn:${sent.turnId}`,
      actor: 'brisk'
    });
    expect(run!.durationMs).toBeGreaterThanOrEqual(1500);
    // Killed at its time-out and removed before the model heard of it.
    const events = containerEvents(`berth.skill.run=${run!.runId}`, since);
    expect(events.map((e) => e.action)).toEqual(
      expect.arrayContaining(['start', 'kill', 'destroy'])
    );
    expect(events.find((e) => e.action === 'destroy')!.at).toBeLessThanOrEqual(followUp.at);
    expect(containersLabelled(`berth.skill.run=${run!.runId}`)).toBe('');
  }, 30_000);

  it('turn.cancel during a container skill stops the container and ends the turn cancelled', async () => {
    const first = fake.requests.length;
    fake.script(toolCallAnswer([{ name: 'long-nap', arguments: {} }]));
    const sent = await sendMessage(berth, OPS, 'sleepy', 'nap, then stop');
    let run: Run | undefined;
    for (let i = 0; i < 250 && !run; i++) {
      await new Promise((r) => setTimeout(r, 20));
      run = (await runsOf('long-nap')).find((r) => r.trigger === `turn:${sent.turnId}`);
    }
    const mine = `berth.skill.run=${run!.runId}`;
    for (let i = 0; i < 250 && containersLabelled(mine) === ''; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(containersLabelled(mine)).not.toBe('');
    await callRpc(berth, OPS, 'turn.cancel', { turnId: sent.turnId });
    expect(await settledTurn(berth, OPS, sent.turnId)).toMatchObject({
      state: 'cancelled',
      error: 'cancelled by ops'
    });
    // Nothing went back to the model, and the run ended with the turn.
    expect(fake.requests.length - first).toBe(1);
    let ended: Run | undefined;
    for (let i = 0; i < 250 && ended?.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      ended = (await runsOf('long-nap')).find((r) => r.runId === run!.runId);
    }
    expect(ended).toMatchObject({ status: 'failed', error: 'cancelled' });
    // Cut short by the cancel, far before the container's 60 s sleep.
    expect(ended!.durationMs).toBeLessThan(10_000);
    expect(containersLabelled(mine)).toBe('');
  }, 20_000);

  it("hands the model a failed run's exit code, output and printed lines beside the reason", async () => {
    const first = fake.requests.length;
    fake.script(
      toolCallAnswer([
        { name: 'grumble', arguments: {} },
        { name: 'down', arguments: {} }
      ]),
      textAnswer(['db-9 is missing and the endpoint is down.'])
    );
    const sent = await sendMessage(berth, OPS, 'tooled', 'check db-9', { userId: 'grace' });
    const done = await settledTurn(berth, OPS, sent.turnId, 20_000);
    expect(done).toMatchObject({ state: 'completed' });
    const results = toolResults(fake.requests[first + 1]!);
    expect(results).toEqual({
      call_0: {
        error: 'exited with code 3',
        exitCode: 3,
        output: 'partial',
        logs: 'no such disk: db-9'
      },
      // The endpoint's error body; Berth's own log lines are not repeated.
      call_1: { error: 'the endpoint answered 503 Service Unavailable', output: 'down' }
    });
    // The session keeps what the model got, for the Chat and Activity cards.
    const { result: session } = await callRpc<{ messages: { role: string; content: string }[] }>(
      berth,
      OPS,
      'session.get',
      { sessionId: sent.sessionId }
    );
    const tools = session!.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => JSON.parse(m.content) as Json)).toEqual([
      { skill: 'grumble', params: {}, ...results.call_0 },
      { skill: 'down', params: {}, ...results.call_1 }
    ]);
  }, 30_000);

  it('gives the model an error naming the field for params failing the schema, and runs nothing', async () => {
    const first = fake.requests.length;
    const before = (await runsOf('shout')).length;
    fake.script(
      toolCallAnswer([{ name: 'shout', arguments: { text: 5 } }]),
      textAnswer(['I passed a number.'])
    );
    const sent = await sendMessage(berth, OPS, 'tooled', 'shout 5');
    const done = await settledTurn(berth, OPS, sent.turnId);
    expect(done).toMatchObject({ state: 'completed', result: 'I passed a number.' });
    const result = toolResults(fake.requests[first + 1]!).call_0!;
    expect(result).toEqual({ error: expect.stringContaining('params.text: ') as string });
    expect(String(result.error)).toMatch(/expected string, received number/);
    expect(await runsOf('shout')).toHaveLength(before);
  });
});
