import { afterEach, describe, expect, it } from 'vitest';
import type { AgentChanged, CreateAgentInput } from '$lib/contracts/agents';
import { parseConfig } from '../../config/config.loader';
import type { Actor } from '../audit/audit.service';
import { isDomainError } from '../../errors';
import { testDomain } from '../testing';

type Domain = ReturnType<typeof testDomain>;
let domain: Domain | undefined;
afterEach(() => domain?.close());

const OPERATOR: Actor = { id: 'u1', email: 'op@example.com', ip: '127.0.0.1' };
const HELPER: CreateAgentInput = { name: 'helper', provider: 'builtin', skills: ['echo'] };

/** The domain error a call throws, as `CODE: message`. */
function failure(call: () => unknown): string {
  try {
    call();
  } catch (err) {
    if (isDomainError(err)) return `${err.code}: ${err.message}`;
    throw err;
  }
  throw new Error('expected a domain error');
}

function changes(d: Domain): AgentChanged[] {
  const seen: AgentChanged[] = [];
  d.bus.on('agent.changed', (c) => {
    if (c.change !== 'state') seen.push(c);
  });
  return seen;
}

const sendTo = (d: Domain, agentName: string, input = 'hello') =>
  d.turns.enqueue({ agentName, sessionKey: 'k', input, source: 'rest', trust: 'operator' });

/** The turn once final, and its runner released (so closing the database races nothing). */
async function finished(d: Domain, turnId: string) {
  const turn = await d.turns.waitFor(turnId, 5000);
  while (d.turns.running(turn.agentName) > 0) await new Promise((r) => setTimeout(r, 5));
  return turn;
}

describe('AgentService: console agents (real SQLite)', () => {
  it('creates an agent that is in force at once, announced, audited and kept on disk', async () => {
    domain = testDomain();
    const seen = changes(domain);
    const view = domain.agents.create(
      { ...HELPER, description: ' Helps ', model: '', heartbeatMs: 60_000 },
      OPERATOR
    );
    expect(view).toMatchObject({
      name: 'helper',
      description: 'Helps',
      model: null,
      source: 'console',
      state: 'idle',
      heartbeatMs: 60_000
    });
    expect(domain.agents.list().map((a) => [a.name, a.source])).toEqual([
      ['main', 'config'],
      ['helper', 'console']
    ]);
    expect(seen).toEqual([{ name: 'helper', change: 'created', state: 'idle' }]);
    expect(domain.agents.status('helper').nextHeartbeatAt).toBeGreaterThan(Date.now());
    expect(domain.audit.list(5)[0]).toMatchObject({
      action: 'agent.create',
      target: 'helper',
      actorEmail: OPERATOR.email
    });
    const done = await finished(domain, sendTo(domain, 'helper').turnId);
    expect(done.result).toContain('builtin provider');

    const dir = domain.dir;
    domain.close(false);
    domain = testDomain({}, dir);
    expect(domain.agents.info('helper')).toMatchObject({ source: 'console', provider: 'builtin' });
  });

  it('refuses a name the config file or another console agent holds', () => {
    domain = testDomain();
    expect(failure(() => domain!.agents.create({ ...HELPER, name: 'main' }, OPERATOR))).toBe(
      'CONFLICT: An agent named main is declared in the config file'
    );
    domain.agents.create(HELPER, OPERATOR);
    expect(failure(() => domain!.agents.create(HELPER, OPERATOR))).toBe(
      'CONFLICT: An agent named helper exists'
    );
  });

  it('validates the name, the provider, the skills and the heartbeat', () => {
    domain = testDomain({
      providers: { local: { type: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' } }
    });
    const create = (input: Partial<CreateAgentInput>) =>
      failure(() => domain!.agents.create({ ...HELPER, ...input }, OPERATOR));
    expect(create({ name: 'Helper' })).toMatch(/^INVALID: name: Use lowercase letters/);
    expect(create({ provider: 'gpt' })).toBe(
      'INVALID: provider: unknown provider gpt (known: builtin, local)'
    );
    expect(create({ skills: ['echo', 'nope'] })).toBe('INVALID: skills: unknown skill nope');
    expect(create({ heartbeatMs: 10 })).toMatch(/^INVALID: heartbeatMs: /);
    expect(create({ heartbeatMs: 2 * 86_400_000 })).toMatch(/^INVALID: heartbeatMs: /);
    expect(create({ channel: 'a b' })).toMatch(/^INVALID: channel: /);
    // `openai` is a type for providers: entries, not a provider an agent names.
    expect(create({ provider: 'openai' })).toBe(
      'INVALID: provider: unknown provider openai (known: builtin, local)'
    );
    // A provider the config declares is accepted, and runs on the openai provider.
    expect(domain.agents.create({ ...HELPER, provider: 'local' }, OPERATOR).state).toBe('idle');
  });

  it('leaves config agents to the config file', () => {
    domain = testDomain();
    const why = 'INVALID: Agent main is declared in the config file; change it there';
    expect(failure(() => domain!.agents.update({ ...HELPER, name: 'main' }, OPERATOR))).toBe(why);
    expect(failure(() => domain!.agents.setDisabled('main', true, OPERATOR))).toBe(why);
    expect(failure(() => domain!.agents.delete('main', OPERATOR))).toBe(why);
    expect(failure(() => domain!.agents.delete('ghost', OPERATOR))).toBe(
      'NOT_FOUND: Agent ghost not found'
    );
  });

  it('updates every setting, and records which changed', () => {
    domain = testDomain();
    domain.agents.create(HELPER, OPERATOR);
    const seen = changes(domain);
    const view = domain.agents.update(
      { ...HELPER, description: 'New', systemPrompt: 'Be brief.', skills: [] },
      OPERATOR
    );
    expect(view).toMatchObject({ description: 'New', systemPrompt: 'Be brief.', skills: [] });
    expect(domain.audit.list(1)[0]).toMatchObject({
      action: 'agent.update',
      detail: { changed: ['description', 'systemPrompt', 'skills'] }
    });
    domain.agents.update(
      { ...HELPER, description: 'New', systemPrompt: 'Be brief.', skills: [] },
      OPERATOR
    );
    expect(seen.map((c) => c.change)).toEqual(['updated']);
  });

  it('a disabled agent refuses new work, keeps its queue, and runs it once enabled', async () => {
    domain = testDomain();
    domain.agents.create(HELPER, OPERATOR);
    // Queued, then disabled before the runner picks it up (it starts on the next microtask).
    const waiting = sendTo(domain, 'helper').turnId;
    domain.agents.setDisabled('helper', true, OPERATOR);
    const refused = 'INVALID: Agent helper is disabled; enable it to send it work';
    expect(failure(() => sendTo(domain!, 'helper'))).toBe(refused);
    expect(
      failure(() => domain!.events.wake({ agentName: 'helper', text: 'x', source: 'rest' }))
    ).toBe(refused);
    expect(domain.agents.status('helper')).toMatchObject({
      state: 'disabled',
      nextHeartbeatAt: null
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(domain.turns.get(waiting).state).toBe('queued');

    domain.agents.setDisabled('helper', false, OPERATOR);
    expect((await finished(domain, waiting)).state).toBe('completed');
    expect(domain.audit.list(2).map((e) => e.action)).toEqual(['agent.enable', 'agent.disable']);
  });

  it('deleting an agent cancels its queued turns and fails its queued events', () => {
    domain = testDomain();
    domain.agents.create(HELPER, OPERATOR);
    const seen = changes(domain);
    const { turnId } = sendTo(domain, 'helper');
    const event = domain.events.wake({ agentName: 'helper', text: 'x', source: 'rest' });
    domain.agents.delete('helper', OPERATOR);
    expect(domain.turns.get(turnId)).toMatchObject({
      state: 'cancelled',
      error: 'Agent helper was deleted'
    });
    expect(domain.events.get(event.eventId).state).toBe('failed');
    expect(seen).toEqual([{ name: 'helper', change: 'deleted', state: null }]);
    expect(failure(() => domain!.agents.status('helper'))).toBe(
      'NOT_FOUND: Agent helper not found'
    );
    expect(domain.database.sqlite.prepare('select count(*) n from agents').get()).toEqual({ n: 0 });
  });

  it('cancels turns left queued for an agent that is gone at the next start', () => {
    domain = testDomain();
    domain.agents.create(HELPER, OPERATOR);
    const { turnId } = sendTo(domain, 'helper');
    const dir = domain.dir;
    domain.close(false);
    domain = testDomain({}, dir);
    domain.database.sqlite.prepare("delete from agents where name = 'helper'").run();
    domain.close(false);
    domain = testDomain({}, dir);
    expect(domain.turns.recover()).toMatchObject({ cancelled: 1 });
    expect(domain.turns.get(turnId).state).toBe('cancelled');
  });

  it('a name the config comes to declare shadows the console agent, which can only be deleted', async () => {
    domain = testDomain();
    domain.agents.create({ ...HELPER, description: 'from the console' }, OPERATOR);
    const seen = changes(domain);
    const withHelper = parseConfig(
      { agents: [{ name: 'main' }, { name: 'helper', description: 'from the file' }] },
      {}
    );
    domain.agents.apply(withHelper);
    expect(seen.map((c) => c.change)).toEqual(['updated']);
    expect(domain.agents.info('helper')).toMatchObject({
      description: 'from the file',
      source: 'config'
    });
    expect(
      domain.agents
        .views()
        .filter((v) => v.name === 'helper')
        .map((v) => [v.source, v.state])
    ).toEqual([
      ['config', 'idle'],
      ['console', 'shadowed']
    ]);
    expect(failure(() => domain!.agents.setDisabled('helper', true, OPERATOR))).toMatch(
      /^INVALID: The config file now declares an agent named helper/
    );
    // Deleting the shadowed row leaves the config agent and its work alone.
    const { turnId } = sendTo(domain, 'helper');
    domain.agents.delete('helper', OPERATOR);
    expect(domain.agents.info('helper').source).toBe('config');
    expect((await finished(domain, turnId)).state).toBe('completed');

    domain.agents.apply(parseConfig({}, {}));
    expect(seen.map((c) => c.change)).toEqual(['updated', 'deleted']);
  });

  it('a message naming no agent goes to the first config agent, else the first enabled one', () => {
    domain = testDomain({ agents: [{ name: 'Ops' }, { name: 'main' }] });
    domain.agents.create(HELPER, OPERATOR);
    expect(domain.agents.defaultAgent().name).toBe('Ops');
    expect(domain.agents.resolveTarget(undefined).name).toBe('Ops');
    expect(domain.agents.resolveTarget('helper').name).toBe('helper');
    expect(failure(() => domain!.agents.resolveTarget('ghost'))).toBe(
      'INVALID: agent ghost does not exist'
    );

    // Console agents only: a disabled one is passed over while an enabled one remains.
    domain.agents.apply(parseConfig({ agents: [] }, {}));
    domain.agents.create({ ...HELPER, name: 'second' }, OPERATOR);
    domain.agents.setDisabled('helper', true, OPERATOR);
    expect(domain.agents.defaultAgent().name).toBe('second');
    domain.agents.setDisabled('second', true, OPERATOR);
    expect(domain.agents.defaultAgent().name).toBe('helper');
    expect(failure(() => sendTo(domain!, domain!.agents.defaultAgent().name))).toBe(
      'INVALID: Agent helper is disabled; enable it to send it work'
    );

    domain.agents.delete('helper', OPERATOR);
    domain.agents.delete('second', OPERATOR);
    expect(failure(() => domain!.agents.resolveTarget(undefined))).toBe(
      'INVALID: No agent exists to take the message'
    );
  });
});
