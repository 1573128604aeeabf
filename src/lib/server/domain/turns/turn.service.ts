import type { TurnRecord } from '$lib/contracts/assistant';
import type { SessionRepository } from '../../db/repositories/session.repository';
import type { TurnRepository, TurnRow } from '../../db/repositories/turn.repository';
import type { InputTrust, TurnState } from '../../db/schema';
import type { AgentService } from '../agents/agent.service';
import type { DomainBus } from '../bus';
import { decodeCursor, paginate } from '../cursor';
import { DomainError, notFound } from '../../errors';
import type { ProviderRequest } from '../providers/provider';
import type { SkillService } from '../skills/skill.service';
import { storageFault } from '../../db/storage-fault';
import { RetryLater, whenStored } from '../storage-retry';
import type { RunningTurns } from './running-turns';

export interface EnqueueTurn {
  agentName: string;
  sessionKey: string;
  input: string;
  source: string;
  /** Who wrote `input`; external text never runs as a command. Kept with the queued turn. */
  trust: InputTrust;
  model?: string | null;
  channel?: string | null;
  userId?: string | null;
  context?: Record<string, unknown> | null;
  delivery?: 'announce' | 'none';
}

/** How much work runs and waits at once (`gateway.turns`, read at each use so reloads apply). */
export interface TurnLimits {
  /** Turns running at once over all agents. */
  maxRunning: number;
  /** Turns of one agent running at once. */
  maxRunningPerAgent: number;
  /** Queued turns an agent may hold; past it new ones are refused (RATE_LIMITED). */
  maxQueuedPerAgent: number;
}

const MAX_ATTEMPTS = 3;
const HISTORY_LIMIT = 40;
/** Bounds of the Retry-After hint given with a full queue. */
const MIN_RETRY_S = 1;
const MAX_RETRY_S = 60;
/** How long turns that never wait on I/O may follow one another before the loop is let go. */
const SLICE_MS = 5;
/** How often a full queue's count is checked against the database. */
const RECOUNT_MS = 1000;

/**
 * Turns as a durable queue in SQLite: enqueue commits before it returns; a scheduler claims
 * queued turns within the running limits (overall and per agent, agents taking turns), runs
 * the provider, and commits the reply.
 *
 * A turn of the builtin provider never waits on I/O: started from a finished one, the next
 * would run in the same macrotask, and a deep queue would hold the event loop until it was
 * empty (probes took seconds under a webhook flood). So turns follow one another for at most
 * SLICE_MS, then the next start waits for a setImmediate: requests and probes come between.
 */
export class TurnService {
  readonly #aborts = new Map<string, AbortController>();
  /** Agents whose claim storage refused (locked database, full disk) are kicked again later. */
  readonly #claimRetry = new RetryLater((agentName) => this.kick(agentName));
  /** Agents that may have queued turns, in the order they get the next free slot. */
  readonly #ready = new Set<string>();
  /** Moving average of a turn's run time per agent, for the Retry-After hint. */
  readonly #turnMs = new Map<string, number>();
  /**
   * Queued turns per agent, counted once from the database and then followed here: a count
   * query per request cost a quarter of the CPU under a flood. A batch whose commit failed
   * leaves it too high, so a full queue is recounted (at most once per RECOUNT_MS).
   */
  readonly #queued = new Map<string, { count: number; countedAt: number }>();
  #runningTotal = 0;
  #pumpScheduled = false;
  /** Until when a finished turn may start the next one at once (see SLICE_MS). */
  #sliceEndsAt = 0;
  #stopped = false;

  constructor(
    private readonly turns: TurnRepository,
    private readonly sessions: SessionRepository,
    private readonly agents: AgentService,
    private readonly skills: SkillService,
    private readonly bus: DomainBus,
    private readonly limits: () => TurnLimits,
    private readonly runningTurns: RunningTurns
  ) {
    // An enabled (or new) agent runs what waits for it; a deleted one leaves nothing stuck.
    bus.on('agent.changed', ({ name, change }) => {
      if (change === 'deleted') this.#cancelQueued(name, `Agent ${name} was deleted`);
      else if (change !== 'state') this.kick(name);
    });
  }

  /**
   * Queues a turn with its user message; returns once both are committed. A full queue
   * refuses it (RATE_LIMITED), except heartbeats: their events are already stored and wait.
   */
  enqueue(input: EnqueueTurn): { turnId: string; sessionId: string; messageId: string } {
    this.agents.requireEnabled(input.agentName);
    if (input.source !== 'heartbeat') this.#admit(input.agentName);
    const now = Date.now();
    const turnId = crypto.randomUUID();
    const messageId = crypto.randomUUID();
    const { turn, sessionId, sessionCreated } = this.turns.enqueueWithMessage({
      agentName: input.agentName,
      sessionKey: input.sessionKey,
      now,
      message: {
        id: messageId,
        content: input.input,
        channel: input.channel ?? null,
        userId: input.userId ?? null
      },
      turn: {
        id: turnId,
        state: 'queued',
        source: input.source,
        input: input.input,
        model: input.model ?? null,
        channel: input.channel ?? null,
        userId: input.userId ?? null,
        context: input.context ?? null,
        delivery: input.delivery ?? 'none',
        trust: input.trust,
        queuedAt: now
      }
    });
    if (sessionCreated)
      this.bus.emit('session.changed', {
        sessionId,
        agentName: input.agentName,
        change: 'created'
      });
    this.bus.emit('message.created', {
      sessionId,
      agentName: input.agentName,
      messageId,
      role: 'user',
      content: input.input
    });
    this.#addQueued(input.agentName, 1);
    this.bus.emit('turn.changed', toRecord(turn));
    this.kick(input.agentName);
    return { turnId, sessionId, messageId };
  }

  get(turnId: string): TurnRecord {
    const row = this.turns.byId(turnId);
    if (!row) throw notFound('Turn');
    return toRecord(row);
  }

  list(
    filter: { agentName?: string; state?: TurnState; sessionId?: string },
    limit: number,
    cursor?: string
  ) {
    const rows = this.turns.page(filter, limit + 1, decodeCursor(cursor));
    const { items, nextCursor } = paginate(rows, limit, (r) => [r.queuedAt, r.id], toRecord);
    return { turns: items, nextCursor };
  }

  running(agentName: string): number {
    return this.runningTurns.of(agentName);
  }

  /** Resolves with the turn once it is final, or as it stands after `timeoutMs`. */
  waitFor(turnId: string, timeoutMs: number): Promise<TurnRecord> {
    const current = this.get(turnId);
    if (isFinal(current.state)) return Promise.resolve(current);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        off();
        resolve(this.get(turnId));
      }, timeoutMs);
      const off = this.bus.on('turn.changed', (turn) => {
        if (turn.turnId !== turnId || !isFinal(turn.state)) return;
        clearTimeout(timer);
        off();
        resolve(turn);
      });
    });
  }

  /**
   * At start: turns a crash left running go back to the queue; then every queue runs, but
   * those of agents that no longer exist (gone from the config while stopped) are cancelled.
   */
  recover(): { requeued: number; failed: number; cancelled: number } {
    const result = this.turns.recover(MAX_ATTEMPTS, Date.now());
    this.#queued.clear();
    let cancelled = 0;
    for (const agent of this.turns.agentsWithQueued())
      if (this.agents.find(agent)) this.kick(agent);
      else cancelled += this.#cancelQueued(agent, `Agent ${agent} no longer exists`);
    return { ...result, cancelled };
  }

  /** The agent may have queued turns: they start as slots free up. */
  kick(agentName: string): void {
    if (this.#stopped) return;
    this.#ready.add(agentName);
    this.#schedulePump();
  }

  #schedulePump(): void {
    if (this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    setImmediate(() => {
      this.#pumpScheduled = false;
      this.#sliceEndsAt = performance.now() + SLICE_MS;
      this.#pump();
    });
  }

  /** Claims and starts queued turns while slots are free, one agent after another. */
  #pump(): void {
    if (this.#stopped) return;
    const { maxRunning, maxRunningPerAgent } = this.limits();
    while (this.#runningTotal < maxRunning) {
      const next = this.#ready.values().next();
      if (next.done) return;
      const agentName = next.value;
      this.#ready.delete(agentName);
      // An agent at its own limit is kicked again when one of its turns ends.
      const agent = this.agents.find(agentName);
      if (!agent || agent.disabled || this.running(agentName) >= maxRunningPerAgent) continue;
      // After storage refused a claim, the agent is kicked again when its backoff ends.
      if (this.#claimRetry.pending(agentName)) continue;
      let row: TurnRow | undefined;
      try {
        row = this.turns.claimNext(agentName, Date.now());
        this.#claimRetry.succeeded();
      } catch {
        // The database refused the write (locked, disk full): the turns wait in the queue.
        this.#claimRetry.schedule(agentName);
        continue;
      }
      if (!row) {
        this.#queued.set(agentName, { count: 0, countedAt: Date.now() });
        continue;
      }
      this.#addQueued(agentName, -1);
      this.#ready.add(agentName); // to the back: other agents take the next slot
      this.#start(row);
    }
  }

  #start(row: TurnRow): void {
    const { agentName } = row;
    const started = performance.now();
    this.#runningTotal++;
    this.runningTurns.started(agentName);
    this.agents.touch(agentName);
    this.bus.emit('turn.changed', toRecord(row));
    void this.#run(row).finally(() => {
      this.#runningTotal--;
      this.runningTurns.ended(agentName);
      const ms = performance.now() - started;
      const average = this.#turnMs.get(agentName);
      this.#turnMs.set(agentName, average === undefined ? ms : average * 0.9 + ms * 0.1);
      // After stop() the database may already be closed (shutdown): nothing more to report.
      if (this.#stopped) return;
      this.agents.touch(agentName);
      // Never inside another caller's work: this runs as a microtask of the turn's end.
      if (performance.now() < this.#sliceEndsAt) {
        this.#ready.add(agentName);
        this.#pump();
      } else this.kick(agentName);
    });
  }

  /** Refuses a turn past the agent's queue limit, with a hint of when a place frees up. */
  #admit(agentName: string): void {
    const { maxQueuedPerAgent, maxRunningPerAgent } = this.limits();
    const queued = this.#queuedCount(agentName, maxQueuedPerAgent);
    if (queued < maxQueuedPerAgent) return;
    // About when the runner has taken the surplus of the queue, one turn per free slot.
    const waitMs =
      ((queued - maxQueuedPerAgent + 1) * (this.#turnMs.get(agentName) ?? 1000)) /
      Math.max(1, maxRunningPerAgent);
    throw new DomainError(
      'RATE_LIMITED',
      `Agent ${agentName} has ${queued} turns queued (the limit is ${maxQueuedPerAgent}); retry later`,
      { retryAfterSeconds: Math.min(MAX_RETRY_S, Math.max(MIN_RETRY_S, Math.ceil(waitMs / 1000))) }
    );
  }

  /** Stops claiming turns and cancels those in flight; they stay `running` for recovery. */
  stop(): void {
    this.#stopped = true;
    for (const abort of this.#aborts.values()) abort.abort();
    this.#claimRetry.clear();
  }

  /** A write that ends a turn, tried until storage takes it; the turn stays running meanwhile. */
  #stored<T>(write: () => T): Promise<T | undefined> {
    return whenStored(write, () => this.#stopped);
  }

  async #run(row: TurnRow): Promise<void> {
    const abort = new AbortController();
    this.#aborts.set(row.id, abort);
    try {
      const agent = this.agents.require(row.agentName);
      const provider = this.agents.provider(agent);
      const session = this.sessions.byId(row.sessionId);
      const history: ProviderRequest['history'] = this.sessions
        .history(row.sessionId, HISTORY_LIMIT)
        .filter((m) => m.id !== row.messageId)
        .map((m) => ({ role: m.role, content: m.content, trust: m.trust }));
      if (session?.summary)
        history.unshift({
          role: 'system',
          content: `Summary of earlier messages: ${session.summary}`,
          trust: 'operator'
        });
      const offered = this.#offeredSkills(agent.skills, row.context);
      let reply = '';
      let usage = { prompt: 0, completion: 0 };
      for await (const chunk of provider.run({
        agentName: agent.name,
        model: row.model ?? agent.model ?? null,
        systemPrompt: agent.systemPrompt ?? null,
        history,
        input: row.input,
        trust: row.trust,
        skills: offered,
        runSkill: async (id, params) => {
          if (!offered.some((skill) => skill.id === id))
            throw new Error(`skill ${id} is not offered to this turn`);
          const run = await this.skills.trigger(
            id,
            params,
            { trigger: `turn:${row.id}`, actor: agent.name },
            abort.signal
          );
          return run.output;
        },
        status: () => this.agents.status(agent.name),
        signal: abort.signal
      })) {
        if (chunk.type === 'delta')
          this.bus.emit('message.delta', {
            turnId: row.id,
            sessionId: row.sessionId,
            agentName: row.agentName,
            text: chunk.text
          });
        else {
          reply = chunk.text;
          usage = chunk.usage;
        }
      }
      if (this.#stopped) return;
      await this.#stored(() => this.#complete(row, reply, usage));
    } catch (err) {
      if (this.#stopped) return;
      if (storageFault(err)) {
        // Storage failed the run before it had a reply (its history could not be read): the
        // turn goes back to the queue rather than failing for a passing fault.
        const queued = await this.#stored(() =>
          this.turns.finish(row.id, { state: 'queued', startedAt: null })
        );
        if (queued) this.bus.emit('turn.changed', toRecord(queued));
        if (queued) this.#addQueued(row.agentName, 1);
        this.#claimRetry.schedule(row.agentName);
        return;
      }
      const error = err instanceof Error ? err.message : String(err);
      const failed = await this.#stored(() =>
        this.turns.finish(row.id, { state: 'failed', error, finishedAt: Date.now() })
      );
      if (failed) this.bus.emit('turn.changed', toRecord(failed));
    } finally {
      this.#aborts.delete(row.id);
    }
  }

  #queuedCount(agentName: string, limit: number): number {
    const now = Date.now();
    const known = this.#queued.get(agentName);
    if (known && (known.count < limit || now - known.countedAt < RECOUNT_MS)) return known.count;
    const count = this.turns.countByState(agentName, ['queued']);
    this.#queued.set(agentName, { count, countedAt: now });
    return count;
  }

  #addQueued(agentName: string, delta: number): void {
    const known = this.#queued.get(agentName);
    if (known) known.count = Math.max(0, known.count + delta);
  }

  #cancelQueued(agentName: string, reason: string): number {
    const cancelled = this.turns.cancelQueued(agentName, reason, Date.now());
    this.#queued.delete(agentName);
    for (const row of cancelled) this.bus.emit('turn.changed', toRecord(row));
    return cancelled.length;
  }

  /** The agent's allowed skills (all when it lists none), narrowed by a request's skill_ids. */
  #offeredSkills(allowed: string[], context: Record<string, unknown> | null) {
    const requested = Array.isArray(context?.skillIds) ? (context.skillIds as unknown[]) : [];
    return this.skills
      .list()
      .filter((s) => allowed.length === 0 || allowed.includes(s.id))
      .filter((s) => requested.length === 0 || requested.includes(s.id));
  }

  /**
   * The reply, its announcement and the `completed` state commit together, so a retry after a
   * refused commit cannot post the reply twice; subscribers hear of them once committed.
   */
  #complete(row: TurnRow, reply: string, usage: { prompt: number; completion: number }): void {
    const now = Date.now();
    const { messages, done } = this.turns.atomically(() => {
      const posted = [
        this.sessions.appendMessage(row.sessionId, {
          id: crypto.randomUUID(),
          role: 'assistant',
          content: reply,
          turnId: row.id,
          channel: row.channel,
          tokens: usage.completion,
          createdAt: now
        })
      ];
      if (row.delivery === 'announce') {
        const announced = this.#announce(row, reply, now);
        if (announced) posted.push(announced);
      }
      const finished = this.turns.finish(row.id, {
        state: 'completed',
        result: reply,
        promptTokens: usage.prompt,
        completionTokens: usage.completion,
        finishedAt: now
      });
      return { messages: posted, done: finished };
    });
    for (const message of messages)
      this.bus.emit('message.created', {
        sessionId: message.sessionId,
        agentName: row.agentName,
        messageId: message.id,
        role: 'assistant',
        content: reply
      });
    // Last, so whoever sees `completed` also sees the reply and its announcement.
    if (done) this.bus.emit('turn.changed', toRecord(done));
  }

  /** Delivery `announce`: the result is posted to the agent's main session too. */
  #announce(row: TurnRow, reply: string, now: number) {
    const main = this.sessions.getOrCreate(row.agentName, 'main', now);
    if (main.id === row.sessionId) return null;
    return this.sessions.appendMessage(main.id, {
      id: crypto.randomUUID(),
      role: 'assistant',
      content: reply,
      turnId: row.id,
      channel: 'announce',
      createdAt: now
    });
  }
}

export const isFinal = (state: string): boolean =>
  state === 'completed' || state === 'failed' || state === 'cancelled';

export function toRecord(row: TurnRow): TurnRecord {
  return {
    turnId: row.id,
    sessionId: row.sessionId,
    agentName: row.agentName,
    state: row.state,
    source: row.source,
    queuedAt: row.queuedAt,
    startedAt: row.startedAt ?? null,
    finishedAt: row.finishedAt ?? null,
    result: row.result ?? null,
    error: row.error ?? null,
    usage: { prompt: row.promptTokens, completion: row.completionTokens }
  };
}
