import type { Db } from '../client';
import { ROWS_PER_INSERT, statements, type Statements } from './event.statements';
import type { EventState, systemEvents } from '../schema';

/** An event as the view `system_event_states` shows it: state, turn and time from its slice. */
export type EventRow = typeof systemEvents.$inferSelect;

/** A row of the view (or of system_events with a slice's fields), as SQLite returns it. */
interface RawEvent {
  id: string;
  agent_name: string;
  state: EventState;
  text: string;
  metadata: string | null;
  source: string;
  turn_id: string | null;
  created_at: number;
  processed_at: number | null;
}

const fromRaw = (r: RawEvent): EventRow => ({
  id: r.id,
  agentName: r.agent_name,
  state: r.state,
  text: r.text,
  metadata: r.metadata === null ? null : (JSON.parse(r.metadata) as Record<string, unknown>),
  source: r.source,
  turnId: r.turn_id,
  createdAt: r.created_at,
  processedAt: r.processed_at
});

export interface EventFilter {
  agentName?: string;
  state?: EventState;
  source?: string;
  since?: number;
  until?: number;
}

/**
 * What one claim took: how many events, where they are (their rowids, first and last), and
 * (for a turn) their lines: one per event, oldest first, `- <text>`, followed by
 * ` (source: <source>)` when the event's metadata has a string `source`.
 */
export interface Taken {
  count: number;
  first: number;
  last: number;
  lines: string;
}

interface Slice {
  id: number;
  agent_name: string;
  first_rowid: number;
  last_rowid: number;
  count: number;
}

/**
 * The smallest id text of millisecond `ms` and after, for UUID v7 ids (domain/ids.ts): an id
 * made at `ms` or later sorts at or above it, one made earlier below (lowercase hex, compared as
 * SQLite compares text).
 */
export function uuidv7Floor(ms: number): string {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}`;
}

/**
 * System events and the slices heartbeats take them in (schema: eventSlices). Taking events
 * and finishing them write one slice row, never the events' own rows: a heartbeat's cost does
 * not grow with the events it takes beyond reading them. better-sqlite3's own statements,
 * compiled once: these run for every wake and every heartbeat turn.
 */
export class EventRepository {
  readonly #s: Statements;
  /** The values of events queued inside `insertingTogether`, not yet written. */
  #held: unknown[][] | null = null;

  constructor(private readonly db: Db) {
    this.#s = statements(db.$client);
  }

  #get<T>(name: keyof Statements, ...args: unknown[]): T | undefined {
    return this.#s[name].get(...args) as T | undefined;
  }

  #all<T>(name: keyof Statements, ...args: unknown[]): T[] {
    return this.#s[name].all(...args) as T[];
  }

  /**
   * A new event, queued; returns it as stored. Inside `insertingTogether` it is written at the
   * end of that work, with the others.
   */
  insertQueued(row: Omit<EventRow, 'state' | 'turnId' | 'processedAt'>): EventRow {
    const values = [
      row.id,
      row.agentName,
      row.text,
      row.metadata == null ? null : JSON.stringify(row.metadata),
      row.source,
      row.createdAt
    ];
    if (this.#held) this.#held.push(values);
    else this.#s.insert.run(values);
    return { ...row, state: 'queued', turnId: null, processedAt: null };
  }

  /**
   * Runs `work` (inside a transaction: the webhooks' group commit) with the events it queues
   * written together as it ends, 32 to a statement; a failed write fails the work, so the
   * transaction rolls back whole. Nothing in it may read the events it queued.
   */
  insertingTogether<T>(work: () => T): T {
    if (this.#held) return work();
    const held: unknown[][] = (this.#held = []);
    try {
      const value = work();
      let i = 0;
      for (; i + ROWS_PER_INSERT <= held.length; i += ROWS_PER_INSERT)
        this.#s.insertMany.run(held.slice(i, i + ROWS_PER_INSERT).flat());
      for (; i < held.length; i++) this.#s.insert.run(held[i]);
      return value;
    } finally {
      this.#held = null;
    }
  }

  byId(id: string): EventRow | undefined {
    const raw = this.#get<RawEvent>('byId', id);
    return raw && fromRaw(raw);
  }

  /**
   * Claims an agent's oldest queued events for a turn, oldest first: a slice left queued by a
   * lost turn (whole), or else at most `limit` events after the newest slice, only while their
   * text stays within `bytes` (UTF-8; but at least one, however long). Run inside the
   * transaction that enqueues the turn. Null when nothing waits.
   */
  claim(agentName: string, turnId: string, limit: number, bytes: number): Taken | null {
    const slice = this.#slice(agentName, limit, bytes, { state: 'processing', turnId, at: null });
    if (!slice) return null;
    const lines = this.#s.lines.get(agentName, slice.first, slice.last) as string | null;
    return { ...slice, lines: lines ?? '' };
  }

  /** The events a claim for `turnId` took, whole (for those who follow events). */
  claimed(agentName: string, taken: Taken, turnId: string): EventRow[] {
    return this.#whole(agentName, taken, { state: 'processing', turnId, at: null });
  }

  /** Fails at most `limit` queued events of an agent (it was deleted), returning them. */
  failQueued(agentName: string, now: number, limit: number): EventRow[] {
    return this.atomically(() => {
      const to = { state: 'failed', turnId: null, at: now } as const;
      const taken = this.#slice(agentName, limit, Number.MAX_SAFE_INTEGER, to);
      return taken ? this.#whole(agentName, taken, to) : [];
    });
  }

  /** A slice's events, whole, with the slice's state, turn and time. */
  #whole(
    agent: string,
    taken: Pick<Taken, 'first' | 'last'>,
    to: { state: EventState; turnId: string | null; at: number | null }
  ): EventRow[] {
    return this.#all<RawEvent>('inSlice', agent, taken.first, taken.last).map((r) =>
      withSlice(r, to)
    );
  }

  #slice(
    agent: string,
    limit: number,
    bytes: number,
    to: { state: EventState; turnId: string | null; at: number | null }
  ): Omit<Taken, 'lines'> | null {
    // A slice a lost turn left goes first, in pieces within the bounds; then what follows the
    // newest slice.
    const requeued = this.#get<Slice>('requeued', agent);
    const head = this.#all<[rowid: number, size: number]>('head', {
      agent,
      after: requeued ? requeued.first_rowid - 1 : this.#after(agent),
      upto: requeued ? requeued.last_rowid : Number.MAX_SAFE_INTEGER,
      limit
    });
    // Cut where the texts pass `bytes`; the first goes however long.
    let count = 0;
    let size = 0;
    for (const [, bytesOf] of head) {
      size += bytesOf;
      if (count && size > bytes) break;
      count++;
    }
    const first = head[0]?.[0] ?? 0;
    const last = head[count - 1]?.[0] ?? 0;
    if (count === 0) {
      if (!requeued) return null;
      // Nothing of it is left queued: it is spent, and the queue goes on after it.
      this.#s.retake.run({ state: 'done', turnId: null, at: null, id: requeued.id });
      return this.#slice(agent, limit, bytes, to);
    }
    if (requeued && count >= requeued.count) {
      this.#s.retake.run({ ...to, id: requeued.id });
      // The whole slice: its bounds, which may hold events that are no longer queued.
      return { count, first: requeued.first_rowid, last: requeued.last_rowid };
    }
    if (requeued) this.#s.shrink.run({ id: requeued.id, first: last + 1, taken: count });
    this.#s.addSlice.run({ agent, first, last, count, ...to });
    return { count, first, last };
  }

  /** The rowid after which the agent's events are in no slice. */
  #after(agent: string): number {
    return this.#get<{ last_rowid: number }>('newest', agent)?.last_rowid ?? 0;
  }

  hasQueued(agentName: string): boolean {
    return (
      this.#get('requeued', agentName) !== undefined ||
      this.#get('anyAfter', agentName, this.#after(agentName)) !== undefined
    );
  }

  countQueued(agentName: string): number {
    const after = this.#get<{ n: number }>('countAfter', agentName, this.#after(agentName))!.n;
    return after + this.#get<{ n: number }>('requeuedCount', agentName)!.n;
  }

  /** Runs `work` in one immediate transaction: a heartbeat's turn and its events' claim. */
  atomically<T>(work: () => T): T {
    return this.db.transaction(() => work(), { behavior: 'immediate' });
  }

  /**
   * A heartbeat turn ended: its slice follows it, one row written. The events come back only
   * when `returning` (someone listens for them); otherwise nothing is read.
   */
  finishForTurn(
    turnId: string,
    state: Extract<EventState, 'done' | 'failed'>,
    now: number,
    returning: boolean
  ): EventRow[] {
    const slices = this.#all<Slice>('finish', { turnId, state, now });
    if (!returning) return [];
    return slices.flatMap((s) =>
      this.#all<RawEvent>('inSlice', s.agent_name, s.first_rowid, s.last_rowid).map((r) =>
        withSlice(r, { state, turnId, at: now })
      )
    );
  }

  /**
   * At start, after the turns' own recovery: slices a crash left `processing` follow their
   * turn. A completed turn's are done; those of a turn that failed, was cancelled or is gone go
   * back to the queue, to be taken whole by the next heartbeat; a queued (re-queued) turn
   * keeps its own. Counts events.
   */
  recoverProcessing(now: number): { done: number; requeued: number } {
    const sum = (sql: string, args: unknown[]) =>
      (this.db.$client.prepare(sql).all(...args) as { count: number }[]).reduce(
        (n, r) => n + r.count,
        0
      );
    return this.db.transaction(() => ({
      done: sum(
        `update event_slices set state = 'done', processed_at = ?
         where state = 'processing' and turn_id in (select id from turns where state = 'completed')
         returning count`,
        [now]
      ),
      requeued: sum(
        `update event_slices set state = 'queued', turn_id = null
         where state = 'processing' and (turn_id is null
           or turn_id not in (select id from turns where state in ('queued', 'running')))
         returning count`,
        []
      )
    }));
  }

  /** The agents with queued events, one index probe per agent that has events. */
  agentsWithQueued(): string[] {
    const names: string[] = [];
    let last = '';
    for (;;) {
      const next = this.#get<{ agent_name: string }>('nextAgent', last)?.agent_name;
      if (next === undefined) return names;
      if (this.hasQueued(next)) names.push(next);
      last = next;
    }
  }

  /**
   * Newest first by time, then id (the Activity timeline merges them with turns so), after
   * `cursor`. An event's time is its UUID v7 id's (EventService.wake), so that order is the id
   * index's: a page walks it back from its bound and stops when full, whatever the table holds.
   * Events stored before times came from ids (one a millisecond off its id now and then) keep
   * their place by id. The agent is matched row by row (`+`), not through its index, which
   * would leave every event of the agent to sort.
   */
  page(filter: EventFilter, limit: number, cursor?: { at: number; id: string }): EventRow[] {
    const clauses: string[] = [];
    const values: unknown[] = [];
    const add = (clause: string, value: unknown) => {
      clauses.push(clause);
      values.push(value);
    };
    if (cursor) {
      // After an event: below its id, the order's own key (exact for events stored before times
      // came from ids too). After a turn: its time decides, and its id among the events of that
      // millisecond.
      const event = this.db.$client.prepare('select 1 from system_events where id = ?');
      if (event.get(cursor.id) !== undefined) add('id < ?', cursor.id);
      else {
        const [from, to] = [uuidv7Floor(cursor.at), uuidv7Floor(cursor.at + 1)];
        add('id < ?', cursor.id < from ? from : cursor.id > to ? to : cursor.id);
      }
    }
    if (filter.until !== undefined) add('id < ?', uuidv7Floor(filter.until));
    if (filter.since !== undefined) add('id >= ?', uuidv7Floor(filter.since));
    const { agentName, ...rest } = filter;
    if (agentName !== undefined) add('+agent_name = ?', agentName);
    const bounds = clauses.length ? { clause: clauses.join(' and '), values } : undefined;
    return this.#page(rest, bounds, 'id desc', limit).map(fromRaw);
  }

  /**
   * Newest first in the order they were stored (rowid), before the rowid `before`: a page
   * reads back from the end of the table and stops at `limit`.
   */
  pageStored(filter: EventFilter, limit: number, before?: number): (EventRow & { rid: number })[] {
    const after = before === undefined ? undefined : { clause: 'rid < ?', values: [before] };
    return this.#page(filter, after, 'rid desc', limit).map((r) => ({ ...fromRaw(r), rid: r.rid }));
  }

  #page(
    filter: EventFilter,
    after: { clause: string; values: unknown[] } | undefined,
    order: string,
    limit: number
  ): (RawEvent & { rid: number })[] {
    const where: string[] = [];
    const args: unknown[] = [];
    const add = (clause: string, ...values: unknown[]) => {
      where.push(clause);
      args.push(...values);
    };
    if (filter.agentName) add('agent_name = ?', filter.agentName);
    if (filter.state) add('state = ?', filter.state);
    if (filter.source) add('source = ?', filter.source);
    if (filter.since !== undefined) add('created_at >= ?', filter.since);
    if (filter.until !== undefined) add('created_at < ?', filter.until);
    if (after) add(after.clause, ...after.values);
    return this.db.$client
      .prepare(
        `select * from system_event_states ${where.length ? `where ${where.join(' and ')}` : ''}
         order by ${order} limit ?`
      )
      .all(...args, limit) as (RawEvent & { rid: number })[];
  }
}

/** An event of a slice, with the slice's state, turn and time. */
function withSlice(
  r: RawEvent | Omit<RawEvent, 'state' | 'turn_id' | 'processed_at'>,
  to: { state: EventState; turnId: string | null; at: number | null }
): EventRow {
  return fromRaw({ ...r, state: to.state, turn_id: to.turnId, processed_at: to.at });
}
