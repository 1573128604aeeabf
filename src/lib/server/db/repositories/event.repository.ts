import { and, asc, desc, eq, gt, gte, inArray, lt, or, sql, type Placeholder } from 'drizzle-orm';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../client';
import { systemEvents, type EventState } from '../schema';

/** Rows picked by rowid: no second lookup through the id index for each one. */
const ROWID = sql<number>`rowid`;

export type EventRow = typeof systemEvents.$inferSelect;

export class EventRepository {
  /**
   * /wake's insert, on the hot path: compiled once, positional, nothing read back (the caller
   * has the row), so no placeholder filling or row mapping either.
   */
  readonly #insert: Statement;
  readonly #claim;
  readonly #finish;
  readonly #finishReturning;

  constructor(private readonly db: Db) {
    const p = (name: string) => sql.placeholder(name);
    this.#insert = db.$client.prepare(
      `insert into system_events (id, agent_name, state, text, metadata, source, created_at)
       values (?, ?, 'queued', ?, ?, ?, ?)`
    );
    // Compiled once too: a heartbeat draining a backlog claims and finishes many slices. The
    // oldest `limit` queued events while their text stays within `bytes` (the first always).
    // octet_length reads the size from the row's header: the texts themselves are not read.
    const oldest = sql`select rid from (
        select rid, row_number() over byAge n, sum(len) over byAge total
        from (select rowid rid, octet_length(text) len, created_at from system_events
          where agent_name = ${p('agentName')} and state = 'queued'
          order by created_at limit ${p('limit')})
        window byAge as (order by created_at, rid))
      where total <= ${p('bytes')} or n = 1`;
    this.#claim = db
      .update(systemEvents)
      .set({ state: 'processing', turnId: sql`${p('turnId')}` })
      .where(sql`${ROWID} in (${oldest})`)
      .returning()
      .prepare();
    const finish = db
      .update(systemEvents)
      .set({ state: sql`${p('state')}`, processedAt: sql`${p('now')}` })
      .where(and(eq(systemEvents.turnId, p('turnId')), eq(systemEvents.state, 'processing')));
    this.#finish = finish.prepare();
    this.#finishReturning = finish.returning().prepare();
  }

  /** A new event, queued; returns it as stored. */
  insertQueued(row: Omit<EventRow, 'state' | 'turnId' | 'processedAt'>): EventRow {
    this.#insert.run(
      row.id,
      row.agentName,
      row.text,
      row.metadata == null ? null : JSON.stringify(row.metadata),
      row.source,
      row.createdAt
    );
    return { ...row, state: 'queued', turnId: null, processedAt: null };
  }

  byId(id: string): EventRow | undefined {
    return this.db.select().from(systemEvents).where(eq(systemEvents.id, id)).get();
  }

  /**
   * Claims an agent's oldest queued events for a turn, in one statement, and returns them
   * oldest first: at most `limit`, and only while their text stays within `bytes` (UTF-8; but
   * at least one, however long). Run inside the transaction that enqueues the turn.
   */
  claim(agentName: string, turnId: string, limit: number, bytes: number): EventRow[] {
    const rows = this.#claim.all({ agentName, turnId, limit, bytes });
    return rows.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  }

  hasQueued(agentName: string): boolean {
    return (
      this.db
        .select({ one: sql<number>`1` })
        .from(systemEvents)
        .where(and(eq(systemEvents.state, 'queued'), eq(systemEvents.agentName, agentName)))
        .limit(1)
        .get() !== undefined
    );
  }

  countQueued(agentName: string): number {
    return (
      this.db
        .select({ n: sql<number>`count(*)` })
        .from(systemEvents)
        .where(and(eq(systemEvents.agentName, agentName), eq(systemEvents.state, 'queued')))
        .get()?.n ?? 0
    );
  }

  /** Runs `work` in one immediate transaction: a heartbeat's turn and its events' claim. */
  atomically<T>(work: () => T): T {
    return this.db.transaction(() => work(), { behavior: 'immediate' });
  }

  /**
   * A heartbeat turn ended: its events follow it. The rows come back only when `returning`
   * (someone listens for them); otherwise nothing is read back.
   */
  finishForTurn(
    turnId: string,
    state: Extract<EventState, 'done' | 'failed'>,
    now: number,
    returning: boolean
  ): EventRow[] {
    const args = { turnId, state, now };
    if (returning) return this.#finishReturning.all(args);
    this.#finish.run(args);
    return [];
  }

  /**
   * At start, after the turns' own recovery: events a crash left `processing` follow their
   * turn. A completed turn's are done; those of a turn that failed, was cancelled or is gone go
   * back to the queue for the next heartbeat; a queued (re-queued) turn keeps its own.
   */
  recoverProcessing(now: number): { done: number; requeued: number } {
    return this.db.transaction((tx) => {
      const turnIn = (states: string[]) =>
        sql`${systemEvents.turnId} in (select id from turns where state in (${sql.join(
          states.map((s) => sql`${s}`),
          sql`, `
        )}))`;
      const done = tx
        .update(systemEvents)
        .set({ state: 'done', processedAt: now })
        .where(and(eq(systemEvents.state, 'processing'), turnIn(['completed'])))
        .run().changes;
      const requeued = tx
        .update(systemEvents)
        .set({ state: 'queued', turnId: null })
        .where(
          and(
            eq(systemEvents.state, 'processing'),
            sql`(${systemEvents.turnId} is null or not ${turnIn(['queued', 'running'])})`
          )
        )
        .run().changes;
      return { done, requeued };
    });
  }

  /**
   * The agents with queued events, one index probe per agent: a distinct scan would read
   * every queued row, and a backlog is what this runs on at start.
   */
  agentsWithQueued(): string[] {
    const names: string[] = [];
    for (;;) {
      const last = names.at(-1);
      const next = this.db
        .select({ agentName: systemEvents.agentName })
        .from(systemEvents)
        .where(
          and(
            eq(systemEvents.state, 'queued'),
            last === undefined ? undefined : gt(systemEvents.agentName, last)
          )
        )
        .orderBy(asc(systemEvents.state), asc(systemEvents.agentName))
        .limit(1)
        .get();
      if (!next) return names;
      names.push(next.agentName);
    }
  }

  /** Fails at most `limit` queued events of an agent (it was deleted), returning them. */
  failQueued(agentName: string, now: number, limit: number): EventRow[] {
    return this.db
      .update(systemEvents)
      .set({ state: 'failed', processedAt: now })
      .where(inArray(ROWID, this.#oldestQueued(agentName, limit)))
      .returning()
      .all();
  }

  #oldestQueued(agentName: string | Placeholder, limit: number | Placeholder) {
    return this.db
      .select({ rowid: ROWID })
      .from(systemEvents)
      .where(and(eq(systemEvents.agentName, agentName), eq(systemEvents.state, 'queued')))
      .orderBy(asc(systemEvents.createdAt))
      .limit(limit);
  }

  page(
    filter: {
      agentName?: string;
      state?: EventState;
      source?: string;
      since?: number;
      until?: number;
    },
    limit: number,
    cursor?: { at: number; id: string }
  ): EventRow[] {
    const where = [
      filter.agentName ? eq(systemEvents.agentName, filter.agentName) : undefined,
      filter.state ? eq(systemEvents.state, filter.state) : undefined,
      filter.source ? eq(systemEvents.source, filter.source) : undefined,
      filter.since !== undefined ? gte(systemEvents.createdAt, filter.since) : undefined,
      filter.until !== undefined ? lt(systemEvents.createdAt, filter.until) : undefined,
      cursor
        ? or(
            lt(systemEvents.createdAt, cursor.at),
            and(eq(systemEvents.createdAt, cursor.at), lt(systemEvents.id, cursor.id))
          )
        : undefined
    ].filter((w) => w !== undefined);
    return this.db
      .select()
      .from(systemEvents)
      .where(where.length ? and(...where) : undefined)
      .orderBy(desc(systemEvents.createdAt), desc(systemEvents.id))
      .limit(limit)
      .all();
  }
}
