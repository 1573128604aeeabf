import Database from 'better-sqlite3';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { Provider, ProviderChunk, ProviderRequest } from '../providers/provider';
import { testDomain } from '../testing';

type Domain = ReturnType<typeof testDomain>;
let domain: Domain | undefined;
let locker: Database.Database | undefined;
afterEach(() => {
  if (locker?.inTransaction) locker.exec('ROLLBACK');
  locker?.close();
  locker = undefined;
  domain?.close();
  domain = undefined;
});

/** Streams its reply in two pieces, as a model would, and keeps what it was asked. */
class TwoPieceProvider implements Provider {
  readonly name = 'two-piece';
  readonly requests: Omit<ProviderRequest, 'signal' | 'runSkill' | 'status'>[] = [];
  constructor(private readonly before?: () => void) {}
  async *run(request: ProviderRequest): AsyncIterable<ProviderChunk> {
    const { agentName, model, systemPrompt, history, input, trust, skills } = request;
    this.requests.push({ agentName, model, systemPrompt, history, input, trust, skills });
    this.before?.();
    yield { type: 'delta', text: 'Hel' };
    await new Promise((r) => setImmediate(r));
    yield { type: 'delta', text: 'lo' };
    yield { type: 'done', text: 'Hello', usage: { prompt: 7, completion: 2 } };
  }
}

const send = (d: Domain, agentName = 'main', input = 'hi') =>
  d.turns.enqueue({ agentName, sessionKey: 'k', input, source: 'rest', trust: 'operator' });

describe('TurnRunner (real SQLite)', () => {
  it('runs a turn on a registered provider: its deltas on the bus, its reply committed', async () => {
    domain = testDomain({
      agents: [{ name: 'main', provider: 'two-piece', model: 'm1', systemPrompt: 'Be brief.' }]
    });
    const d = domain;
    expect(d.agents.info('main').state).toBe('error'); // nothing runs it yet
    const provider = new TwoPieceProvider();
    d.providers.register('two-piece', () => provider);
    expect(d.agents.info('main').state).toBe('idle');

    const deltas: string[] = [];
    d.bus.on('message.delta', (delta) => deltas.push(delta.text));
    const { turnId, sessionId } = send(d);
    const done = await d.turns.waitFor(turnId, 5000);
    expect(done).toMatchObject({
      state: 'completed',
      result: 'Hello',
      usage: { prompt: 7, completion: 2 }
    });
    expect(deltas).toEqual(['Hel', 'lo']);
    expect(provider.requests).toEqual([
      expect.objectContaining({
        agentName: 'main',
        model: 'm1',
        systemPrompt: 'Be brief.',
        history: [],
        input: 'hi',
        trust: 'operator'
      })
    ]);
    expect(d.chatSessions.get(sessionId, 10).messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hello']
    ]);
  });

  it('fails the turn when its agent names a provider that nothing provides, naming it', async () => {
    domain = testDomain({ agents: [{ name: 'main', provider: 'gpt' }] });
    const done = await domain.turns.waitFor(send(domain).turnId, 5000);
    expect(done).toMatchObject({
      state: 'failed',
      error:
        'Provider gpt is not available: it is neither registered nor declared under providers: in the config'
    });
    expect(domain.agents.info('main').state).toBe('error');
  });

  it('runs a providers: entry on the provider registered for its type', async () => {
    domain = testDomain({
      agents: [{ name: 'main', provider: 'local' }],
      providers: { local: { type: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' } }
    });
    const d = domain;
    // The runtime's openai provider: it needs a model, which neither the agent nor the entry names.
    expect((await d.turns.waitFor(send(d).turnId, 5000)).error).toBe(
      "provider local has no model: set the agent's model or providers.local.model"
    );
    d.providers.register('openai', (settings) => ({
      name: 'openai',
      // Says which entry built it.
      run: () =>
        Readable.from([
          { type: 'done', text: settings!.baseUrl, usage: { prompt: 0, completion: 0 } }
        ])
    }));
    expect(await d.turns.waitFor(send(d).turnId, 5000)).toMatchObject({
      state: 'completed',
      result: 'http://127.0.0.1:11434/v1'
    });
  });

  it('a run that storage fails before its reply goes back to the queue, then completes', async () => {
    domain = testDomain({ agents: [{ name: 'main', provider: 'two-piece' }] });
    const d = domain;
    // The provider writes to the database, as a model's tool might; under another process's
    // lock the write meets SQLITE_BUSY, a storage fault, not a failure of the turn.
    const provider = new TwoPieceProvider(() => d.database.sqlite.exec('BEGIN IMMEDIATE; COMMIT'));
    d.providers.register('two-piece', () => provider);
    const states: string[] = [];
    d.bus.on('turn.changed', (t) => {
      states.push(t.state);
      if (t.state === 'running' && !locker) {
        locker = new Database(join(d.dir, 'berth.db'));
        locker.exec('BEGIN EXCLUSIVE');
      }
    });
    const { turnId } = send(d);
    await new Promise((r) => setTimeout(r, 300));
    expect(d.turns.get(turnId).state).toBe('running'); // its requeue waits for the lock
    locker!.exec('COMMIT');
    expect(await d.turns.waitFor(turnId, 5000)).toMatchObject({
      state: 'completed',
      result: 'Hello'
    });
    expect(states).toEqual(['queued', 'running', 'queued', 'running', 'completed']);
    expect(provider.requests).toHaveLength(2);
  });
});
