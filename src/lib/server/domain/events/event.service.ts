import type { EventRecord } from '$lib/contracts/assistant';
import type { EventRepository, EventRow, Taken } from '../../db/repositories/event.repository';
import type { EventState } from '../../db/schema';
import type { AgentService } from '../agents/agent.service';
import type { DomainBus } from '../bus';
import { decodeCursor, paginate } from '../cursor';
import { notFound } from '../../errors';
import { uuidv7, uuidv7Ms } from '../ids';
import { storageFault } from '../../db/storage-fault';
import { RetryLater, whenStored } from '../storage-retry';
import type { TurnService } from '../turns/turn.service';

/**
 * What one heartbeat turn takes at most: events, and bytes of their text (UTF-8, about 8,000
 * tokens; a single longer event still goes, alone). Each turn is a model call that carries the
 * session's history too, so fuller turns cost fewer tokens for the same events.
 */
const EVENTS_PER_TURN = 500;
const BYTES_PER_TURN = 32_000;
/**
 * Heartbeat turns an agent may have queued or running while it works a backlog: the next
 * slice is claimed as one ends. Events not claimed stay `queued`, so a stop leaves them there
 * and the rows in `processing` stay few.
 */
const TURNS_AHEAD = 4;
/** How long one macrotask may claim slices before the event loop is let go. */
const SLICE_MS = 4;
/** A burst of `mode: "now"` wakes asks for one beat per agent, at most this often. */
const NOW_GAP_MS = 100;
/** Events of a gone agent failed per macrotask. */
const FAIL_SLICE = 1000;

/**
 * System events: /wake queues one (committed before it answers); each agent's heartbeat takes
 * its queued events into turns of at most EVENTS_PER_TURN and BYTES_PER_TURN, and the events
 * follow their turn to done or failed. A backlog is worked in slices (one transaction each: the
 * claim and its turn), never more than TURNS_AHEAD turns ahead of the runner and never longer
 * than SLICE_MS per macrotask, so requests and probes are answered throughout and nothing is
 * read whole.
 */
export class EventService {
  readonly #timers = new Map<string, { timer: NodeJS.Timeout; nextAt: number }>();
  /** Heartbeats whose claim storage refused (locked database, full disk) try again soon. */
  readonly #beatRetry = new RetryLater((agentName) => this.#take(agentName));
  /** Heartbeat turns per agent enqueued here and not yet ended. */
  readonly #ahead = new Map<string, number>();
  /** Agents whose last slice was full (or held back): taken again as their turns end. */
  readonly #backlog = new Set<string>();
  /** One scheduled piece of work per agent (the next slice, a "now" beat): bursts coalesce. */
  readonly #pending = new Map<string, () => void>();
  readonly #lastNowBeat = new Map<string, number>();
  #stopped = false;

  constructor(
    private readonly events: EventRepository,
    private readonly agents: AgentService,
    private readonly turns: TurnService,
    private readonly bus: DomainBus
  ) {
    // A completed heartbeat turn's events are done in the commit that completes it.
    turns.onComplete((turn, now) => {
      if (turn.source !== 'heartbeat') return undefined;
      const rows = this.events.finishForTurn(turn.id, 'done', now, bus.listens('event.changed'));
      return () => {
        for (const row of rows) bus.emit('event.changed', toRecord(row));
      };
    });
    bus.on('turn.changed', (turn) => {
      if (turn.state !== 'completed' && turn.state !== 'failed' && turn.state !== 'cancelled')
        return;
      if (turn.source !== 'heartbeat') return;
      const { agentName } = turn;
      this.#ahead.set(agentName, Math.max(0, (this.#ahead.get(agentName) ?? 0) - 1));
      // A failed or cancelled turn's events fail as soon as storage takes the write.
      if (turn.state !== 'completed')
        void whenStored(
          () =>
            this.events.finishForTurn(
              turn.turnId,
              'failed',
              Date.now(),
              this.bus.listens('event.changed')
            ),
          () => this.#stopped
        ).then((rows) => {
          for (const row of rows ?? []) this.bus.emit('event.changed', toRecord(row));
        });
      if (this.#backlog.has(agentName)) this.#soon(agentName, 0, () => this.#take(agentName));
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
    // The event's time is its id's, so the id index orders events by time (Activity pages by it).
    const id = uuidv7();
    const row = this.events.insertQueued({
      id,
      agentName: input.agentName,
      text: input.text,
      metadata: input.metadata ?? null,
      source: input.source,
      createdAt: uuidv7Ms(id)
    });
    const record = toRecord(row);
    // Inside a webhook batch's transaction: announced, and beating, only once it commits.
    this.bus.afterCommit(() => {
      if (input.mode === 'now') this.#beatNow(input.agentName);
      this.bus.emit('event.changed', record);
    });
    return record;
  }

  /** Runs `work` (in a transaction) with the events it queues written together at its end. */
  together<T>(work: () => T): T {
    return this.events.insertingTogether(work);
  }

  /** At start: events a crash left `processing` follow their turn (EventRepository). */
  recover(): { done: number; requeued: number } {
    return this.events.recoverProcessing(Date.now());
  }

  get(eventId: string): EventRecord {
    const row = this.events.byId(eventId);
    if (!row) throw notFound('Event');
    return toRecord(row);
  }

  list(filter: { agentName?: string; state?: EventState }, limit: number, cursor?: string) {
    // The cursor carries the last event's rowid (and its id, which is not needed).
    const rows = this.events.pageStored(filter, limit + 1, decodeCursor(cursor)?.at);
    const { items, nextCursor } = paginate(rows, limit, (r) => [r.rid, r.id], toRecord);
    return { events: items, nextCursor };
  }

  /**
   * One heartbeat: the agent's queued events become turns on its main session, the first
   * slice at once (its turn id is returned), the rest of a backlog in later slices.
   */
  beat(agentName: string): string | null {
    if (this.#stopped) return null;
    const agent = this.agents.find(agentName);
    if (!agent || agent.disabled) return null;
    const now = Date.now();
    this.agents.setHeartbeat(agentName, {
      lastHeartbeatAt: now,
      // The interval's own next tick; a beat asked for out of turn does not move it.
      nextHeartbeatAt: this.#timers.get(agentName)?.nextAt ?? now + agent.heartbeatMs
    });
    return this.#take(agentName);
  }

  /**
   * Starts a heartbeat timer per agent (and one beat at once, for events left from before).
   * Events queued for an agent that is gone (removed from the file while Berth was stopped)
   * fail.
   */
  start(): void {
    this.#stopped = false;
    for (const { timer } of this.#timers.values()) clearInterval(timer);
    this.#timers.clear();
    const names = new Set(this.agents.all().map((a) => a.name));
    for (const name of this.events.agentsWithQueued()) if (!names.has(name)) this.#schedule(name);
    for (const name of names) this.#schedule(name);
  }

  stop(): void {
    this.#stopped = true;
    for (const { timer } of this.#timers.values()) clearInterval(timer);
    this.#timers.clear();
    for (const cancel of this.#pending.values()) cancel();
    this.#pending.clear();
    this.#beatRetry.clear();
  }

  /** Claims slices while the agent's turns keep up and this macrotask's time lasts. */
  #take(agentName: string): string | null {
    const deadline = performance.now() + SLICE_MS;
    let first: string | null = null;
    for (;;) {
      const agent = this.agents.find(agentName);
      if (this.#stopped || !agent || agent.disabled) return first;
      if ((this.#ahead.get(agentName) ?? 0) >= TURNS_AHEAD) {
        this.#backlog.add(agentName); // a turn's end takes the next slice
        return first;
      }
      const slice = this.#claimSlice(agentName);
      if (!slice) return first;
      first ??= slice.turnId;
      if (!slice.full) {
        this.#backlog.delete(agentName);
        return first;
      }
      this.#backlog.add(agentName);
      if (performance.now() >= deadline) {
        this.#soon(agentName, 0, () => this.#take(agentName));
        return first;
      }
    }
  }

  /** One transaction: the oldest queued events claimed for one new turn that carries them. */
  #claimSlice(agentName: string): { turnId: string; full: boolean } | null {
    const turnId = crypto.randomUUID();
    let taken: Taken | null;
    // Whether events still wait after this slice (the bound cut it).
    let more = false;
    try {
      // One commit: a refused claim leaves the events queued, never claimed twice.
      taken = this.events.atomically(() => {
        const claim = this.events.claim(agentName, turnId, EVENTS_PER_TURN, BYTES_PER_TURN);
        if (!claim) return null;
        more = claim.count === EVENTS_PER_TURN || this.events.hasQueued(agentName);
        // Last: what it tells listeners (the turn's message) should follow only work that held.
        this.turns.enqueue({
          turnId,
          agentName,
          sessionKey: 'main',
          input: `System events:\n${claim.lines}`,
          source: 'heartbeat',
          // System events are queued by webhooks: what they say is content, not a command.
          trust: 'external',
          delivery: 'none',
          credential: 'heartbeat'
        });
        return claim;
      });
      this.#beatRetry.succeeded();
    } catch (err) {
      if (!storageFault(err)) throw err;
      this.#beatRetry.schedule(agentName);
      return null;
    }
    if (!taken) {
      this.#backlog.delete(agentName);
      return null;
    }
    this.#ahead.set(agentName, (this.#ahead.get(agentName) ?? 0) + 1);
    if (this.bus.listens('event.changed'))
      for (const e of this.events.claimed(agentName, taken, turnId))
        this.bus.emit('event.changed', toRecord(e));
    return { turnId, full: more };
  }

  /**
   * `mode: "now"`: one beat as soon as the loop is free, coalesced per agent and at most one
   * per NOW_GAP_MS, so a burst of such wakes makes a few full turns, not one turn per wake.
   */
  #beatNow(agentName: string): void {
    const wait = (this.#lastNowBeat.get(agentName) ?? 0) + NOW_GAP_MS - Date.now();
    this.#soon(agentName, Math.max(0, wait), () => {
      this.#lastNowBeat.set(agentName, Date.now());
      this.beat(agentName);
    });
  }

  /** Runs `work` for the agent after `ms` (0: the next loop turn), unless work is pending. */
  #soon(agentName: string, ms: number, work: () => void): void {
    if (this.#stopped || this.#pending.has(agentName)) return;
    const run = () => {
      this.#pending.delete(agentName);
      work();
    };
    if (ms > 0) {
      const timer = setTimeout(run, ms).unref();
      this.#pending.set(agentName, () => clearTimeout(timer));
    } else {
      const immediate = setImmediate(run);
      this.#pending.set(agentName, () => clearImmediate(immediate));
    }
  }

  /** (Re)starts one agent's timer with a beat now; none for a disabled or deleted agent. */
  #schedule(agentName: string): void {
    clearInterval(this.#timers.get(agentName)?.timer);
    this.#timers.delete(agentName);
    const agent = this.agents.find(agentName);
    if (!agent) {
      this.#failQueued(agentName);
      return;
    }
    if (this.#stopped || agent.disabled) return;
    const { heartbeatMs } = agent;
    const entry = {
      nextAt: Date.now() + heartbeatMs,
      timer: setInterval(() => {
        entry.nextAt = Date.now() + heartbeatMs;
        this.beat(agentName);
      }, heartbeatMs).unref()
    };
    this.#timers.set(agentName, entry);
    this.agents.setHeartbeat(agentName, { nextHeartbeatAt: entry.nextAt });
    // In a later loop turn, never inside the work that (re)scheduled it (a config change, start).
    this.#soon(agentName, 0, () => this.beat(agentName));
  }

  /** The events of a deleted agent fail, a slice per macrotask. */
  #failQueued(agentName: string): void {
    // Made again meanwhile: its events are its own again.
    if (this.#stopped || this.agents.find(agentName)) return;
    const rows = this.events.failQueued(agentName, Date.now(), FAIL_SLICE);
    for (const row of rows) this.bus.emit('event.changed', toRecord(row));
    if (rows.length && this.events.hasQueued(agentName))
      this.#soon(agentName, 0, () => this.#failQueued(agentName));
  }
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
