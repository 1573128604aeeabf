import { and, asc, desc, eq, gt, gte, inArray, lt, or, sql, type Placeholder } from 'drizzle-orm';
import type { Db } from '../client';
import { systemEvents, type EventState } from '../schema';

/** Rows picked by rowid: no second lookup through the id index for each one. */
const ROWID = sql<number>`rowid`;

export type EventRow = typeof systemEvents.$inferSelect;

export class EventRepository {
  /** Compiled once: /wake inserts on the hot path, and compiling the SQL cost more than running it. */
  readonly #insert;
  /** Without metadata, so a missing one stays SQL NULL (a placeholder would store 'null'). */
  readonly #insertBare;
  readonly #claim;
  readonly #finish;
  readonly #finishReturning;

  constructor(private readonly db: Db) {
    const p = (name: string) => sql.placeholder(name);
    const columns = {
      id: p('id'),
      agentName: p('agentName'),
      state: p('state'),
      text: p('text'),
      source: p('source'),
      createdAt: p('createdAt')
    };
    this.#insert = db
      .insert(systemEvents)
      .values({ ...columns, metadata: p('metadata') })
      .returning()
      .prepare();
    this.#insertBare = db.insert(systemEvents).values(columns).returning().prepare();
    // Compiled once too: a heartbeat draining a backlog claims and finishes many slices.
    this.#claim = db
      .update(systemEvents)
      .set({ state: 'processing', turnId: sql`${p('turnId')}` })
      .where(inArray(ROWID, this.#oldestQueued(p('agentName'), p('limit'))))
      .returning()
      .prepare();
    const finish = db
      .update(systemEvents)
      .set({ state: sql`${p('state')}`, processedAt: sql`${p('now')}` })
      .where(and(eq(systemEvents.turnId, p('turnId')), eq(systemEvents.state, 'processing')));
    this.#finish = finish.prepare();
    this.#finishReturning = finish.returning().prepare();
  }

  insert(row: typeof systemEvents.$inferInsert): EventRow {
    // Only new events come through here: turnId and processedAt are set later.
    if (row.turnId != null || row.processedAt != null)
      return this.db.insert(systemEvents).values(row).returning().get();
    return row.metadata == null ? this.#insertBare.get(row) : this.#insert.get(row);
  }

  byId(id: string): EventRow | undefined {
    return this.db.select().from(systemEvents).where(eq(systemEvents.id, id)).get();
  }

  /**
   * Claims an agent's oldest queued events (at most `limit`) for a turn, in one statement, and
   * returns them oldest first. Run inside the transaction that enqueues the turn.
   */
  claim(agentName: string, turnId: string, limit: number): EventRow[] {
    const rows = this.#claim.all({ agentName, turnId, limit });
    return rows.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
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
