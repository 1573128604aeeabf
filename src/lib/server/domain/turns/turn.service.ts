import type { TurnRecord } from '$lib/contracts/assistant';
import type { TurnFilter, TurnRepository, TurnRow } from '../../db/repositories/turn.repository';
import type { InputTrust } from '../../db/schema';
import type { AgentService } from '../agents/agent.service';
import type { DomainBus } from '../bus';
import { decodeCursor, paginate } from '../cursor';
import { DomainError, invalid, notFound } from '../../errors';
import { RetryLater } from '../storage-retry';
import type { RunningTurns } from './running-turns';
import { isFinal, toRecord } from './turn.record';
import { TurnCancel, type CompletionHook, type TurnRunner } from './turn.runner';

/** Re-exported: the chat handler imports it from here. */
export { isFinal } from './turn.record';

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
  /**
   * What caused the turn, for usage.stats: `apikey:<name>`, `token:<name>`, `console:<email>`,
   * `webhook`, `webhook:<mapping>`, `heartbeat`, `anonymous`.
   */
  credential?: string | null;
  /** The turn's id when the caller needs it first (a heartbeat claims its events with it). */
  turnId?: string;
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
/** Bounds of the Retry-After hint given with a full queue. */
const MIN_RETRY_S = 1;
const MAX_RETRY_S = 60;
/** How long turns that never wait on I/O may follow one another before the loop is let go. */
const SLICE_MS = 5;
/** How often a full queue's count is checked against the database. */
const RECOUNT_MS = 1000;

/**
 * Turns as a durable queue in SQLite: enqueue commits before it returns; a scheduler claims
 * queued turns within the running limits (overall and per agent, agents taking turns) and
 * hands each to the runner, which runs the provider and commits the reply.
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
    private readonly runner: TurnRunner,
    private readonly agents: AgentService,
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
    const turnId = input.turnId ?? crypto.randomUUID();
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
        // Kept once, in the user message (turnInput): see turns.input.
        input: '',
        model: input.model ?? null,
        channel: input.channel ?? null,
        userId: input.userId ?? null,
        context: input.context ?? null,
        delivery: input.delivery ?? 'none',
        credential: input.credential ?? null,
        trust: input.trust,
        queuedAt: now
      }
    });
    // Counted at once, so one batch of webhook turns meets the queue's limit; announced and
    // run only once the transaction it may be part of (a webhook batch) commits.
    this.#addQueued(input.agentName, 1);
    this.bus.afterCommit(() => {
      // First: a listener that throws below must not leave the committed turn unstarted.
      this.kick(input.agentName);
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
        turnId,
        role: 'user',
        content: input.input,
        userId: input.userId ?? null
      });
      this.bus.emit('turn.changed', toRecord(turn));
    });
    return { turnId, sessionId, messageId };
  }

  /** Work that joins each completed turn's commit (TurnRunner's CompletionHook). */
  onComplete(hook: CompletionHook): void {
    this.runner.onComplete(hook);
  }

  get(turnId: string): TurnRecord {
    const row = this.turns.byId(turnId);
    if (!row) throw notFound('Turn');
    return toRecord(row);
  }

  /**
   * Cancels a queued or running turn. A running one is aborted (its provider's request with
   * it) and ends `cancelled` once its run unwinds; the record returned may still say running.
   */
  cancel(turnId: string, by: string): TurnRecord {
    const row = this.turns.byId(turnId);
    if (!row) throw notFound('Turn');
    const reason = new TurnCancel(by);
    if (row.state === 'queued') {
      const cancelled = this.turns.cancelOneQueued(turnId, reason.message, Date.now());
      if (cancelled) {
        this.#addQueued(row.agentName, -1);
        this.bus.emit('turn.changed', toRecord(cancelled));
        return toRecord(cancelled);
      }
    }
    const running = this.#aborts.get(turnId);
    if (running) {
      running.abort(reason);
      return toRecord(row);
    }
    const now = this.turns.byId(turnId)!;
    throw invalid(`Turn ${turnId} is ${now.state}: only a queued or running turn can be cancelled`);
  }

  list(filter: TurnFilter, limit: number, cursor?: string) {
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

  async #run(row: TurnRow): Promise<void> {
    const abort = new AbortController();
    this.#aborts.set(row.id, abort);
    try {
      // Back in the queue after a storage fault: its agent's claims wait for the backoff.
      if ((await this.runner.run(row, abort.signal)) === 'requeued') {
        this.#addQueued(row.agentName, 1);
        this.#claimRetry.schedule(row.agentName);
      }
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
}
