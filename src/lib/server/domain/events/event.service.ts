import type { EventRecord } from '$lib/contracts/assistant';
import type { EventRepository, EventRow } from '../../db/repositories/event.repository';
import type { EventState } from '../../db/schema';
import type { AgentService } from '../agents/agent.service';
import type { DomainBus } from '../bus';
import { decodeCursor, paginate } from '../cursor';
import { notFound } from '../../errors';
import { uuidv7 } from '../ids';
import { storageFault } from '../../db/storage-fault';
import { RetryLater, whenStored } from '../storage-retry';
import type { TurnService } from '../turns/turn.service';

const EVENTS_PER_HEARTBEAT = 100;

/**
 * System events: /wake queues one (committed before it answers); each agent's heartbeat takes
 * all its queued events into one turn, and the events follow that turn to done or failed.
 */
export class EventService {
  readonly #timers = new Map<string, NodeJS.Timeout>();
  /** Heartbeats whose claim storage refused (locked database, full disk) beat again soon. */
  readonly #beatRetry = new RetryLater((agentName) => this.beat(agentName));
  #stopped = false;

  constructor(
    private readonly events: EventRepository,
    private readonly agents: AgentService,
    private readonly turns: TurnService,
    private readonly bus: DomainBus
  ) {
    bus.on('turn.changed', (turn) => {
      if (turn.state !== 'completed' && turn.state !== 'failed' && turn.state !== 'cancelled')
        return;
      if (turn.source !== 'heartbeat') return;
      const state = turn.state === 'completed' ? 'done' : 'failed';
      // The turn has ended; its events follow as soon as storage takes the write.
      void whenStored(
        () => this.events.finishForTurn(turn.turnId, state, Date.now()),
        () => this.#stopped
      ).then((rows) => {
        for (const row of rows ?? []) this.bus.emit('event.changed', toRecord(row));
      });
    });
    // Heartbeats follow the agents: new or enabled ones beat, disabled or deleted ones stop.
    bus.on('agent.changed', ({ name, change }) => {
      if (change !== 'state') this.#schedule(name);
    });
  }

  wake(input: {
    agentName: string;
    text: string;
    metadata?: Record<string, unknown> | null;
    source: string;
    mode?: 'now' | 'next-heartbeat';
  }): EventRecord {
    this.agents.requireEnabled(input.agentName);
    const row = this.events.insert({
      id: uuidv7(),
      agentName: input.agentName,
      state: 'queued',
      text: input.text,
      metadata: input.metadata ?? null,
      source: input.source,
      createdAt: Date.now()
    });
    const record = toRecord(row);
    this.bus.emit('event.changed', record);
    if (input.mode === 'now') queueMicrotask(() => this.beat(input.agentName));
    return record;
  }

  get(eventId: string): EventRecord {
    const row = this.events.byId(eventId);
    if (!row) throw notFound('Event');
    return toRecord(row);
  }

  list(filter: { agentName?: string; state?: EventState }, limit: number, cursor?: string) {
    const rows = this.events.page(filter, limit + 1, decodeCursor(cursor));
    const { items, nextCursor } = paginate(rows, limit, (r) => [r.createdAt, r.id], toRecord);
    return { events: items, nextCursor };
  }

  /** One heartbeat: queued events become one turn on the agent's main session. */
  beat(agentName: string): string | null {
    if (this.#stopped) return null;
    const agent = this.agents.find(agentName);
    if (!agent || agent.disabled) return null;
    const now = Date.now();
    this.agents.setHeartbeat(agentName, {
      lastHeartbeatAt: now,
      nextHeartbeatAt: now + agent.heartbeatMs
    });
    const queued = this.events.queued(agentName, EVENTS_PER_HEARTBEAT);
    if (!queued.length) return null;
    const text = `System events:\n${queued.map(describeEvent).join('\n')}`;
    let turnId: string;
    try {
      // One commit: a refused claim leaves the events queued, never claimed twice.
      turnId = this.events.atomically(() => {
        const turn = this.turns.enqueue({
          agentName,
          sessionKey: 'main',
          input: text,
          source: 'heartbeat',
          // System events are queued by webhooks: what they say is content, not a command.
          trust: 'external',
          delivery: 'none'
        });
        this.events.markProcessing(
          queued.map((e) => e.id),
          turn.turnId
        );
        return turn.turnId;
      });
      this.#beatRetry.succeeded();
    } catch (err) {
      if (!storageFault(err)) throw err;
      this.#beatRetry.schedule(agentName);
      return null;
    }
    for (const e of queued)
      this.bus.emit('event.changed', toRecord({ ...e, state: 'processing', turnId }));
    // More are waiting: the next hundred in the next event-loop turn, so a deep backlog of
    // wake events never holds the loop in one go.
    if (queued.length === EVENTS_PER_HEARTBEAT) setImmediate(() => this.beat(agentName));
    return turnId;
  }

  /**
   * Starts a heartbeat timer per agent (and one beat now, for events left from before). Events
   * queued for an agent that is gone (removed from the file while Berth was stopped) fail.
   */
  start(): void {
    this.#stopped = false;
    for (const timer of this.#timers.values()) clearInterval(timer);
    this.#timers.clear();
    const names = new Set(this.agents.all().map((a) => a.name));
    for (const name of this.events.agentsWithQueued()) if (!names.has(name)) this.#schedule(name);
    for (const name of names) this.#schedule(name);
  }

  /** (Re)starts one agent's timer with a beat now; none for a disabled or deleted agent. */
  #schedule(agentName: string): void {
    clearInterval(this.#timers.get(agentName));
    this.#timers.delete(agentName);
    const agent = this.agents.find(agentName);
    if (!agent) {
      for (const row of this.events.failQueued(agentName, Date.now()))
        this.bus.emit('event.changed', toRecord(row));
      return;
    }
    if (this.#stopped || agent.disabled) return;
    this.#timers.set(agentName, setInterval(() => this.beat(agentName), agent.heartbeatMs).unref());
    this.beat(agentName);
  }

  stop(): void {
    this.#stopped = true;
    for (const timer of this.#timers.values()) clearInterval(timer);
    this.#timers.clear();
    this.#beatRetry.clear();
  }
}

function describeEvent(e: EventRow): string {
  const source = e.metadata?.source;
  return typeof source === 'string' ? `- ${e.text} (source: ${source})` : `- ${e.text}`;
}

export function toRecord(row: EventRow): EventRecord {
  return {
    eventId: row.id,
    agentName: row.agentName,
    state: row.state,
    text: row.text,
    metadata: row.metadata ?? null,
    createdAt: row.createdAt,
    processedAt: row.processedAt ?? null,
    turnId: row.turnId ?? null
  };
}
