import { and, asc, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { systemEvents, type EventState } from '../schema';

export type EventRow = typeof systemEvents.$inferSelect;

export class EventRepository {
  /** Compiled once: /wake inserts on the hot path, and compiling the SQL cost more than running it. */
  readonly #insert;
  /** Without metadata, so a missing one stays SQL NULL (a placeholder would store 'null'). */
  readonly #insertBare;

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

  queued(agentName: string, limit: number): EventRow[] {
    return this.db
      .select()
      .from(systemEvents)
      .where(and(eq(systemEvents.agentName, agentName), eq(systemEvents.state, 'queued')))
      .orderBy(asc(systemEvents.createdAt))
      .limit(limit)
      .all();
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

  markProcessing(ids: string[], turnId: string): void {
    if (ids.length)
      this.db
        .update(systemEvents)
        .set({ state: 'processing', turnId })
        .where(inArray(systemEvents.id, ids))
        .run();
  }

  finishForTurn(
    turnId: string,
    state: Extract<EventState, 'done' | 'failed'>,
    now: number
  ): EventRow[] {
    return this.db
      .update(systemEvents)
      .set({ state, processedAt: now })
      .where(and(eq(systemEvents.turnId, turnId), eq(systemEvents.state, 'processing')))
      .returning()
      .all();
  }

  agentsWithQueued(): string[] {
    return this.db
      .selectDistinct({ agentName: systemEvents.agentName })
      .from(systemEvents)
      .where(eq(systemEvents.state, 'queued'))
      .all()
      .map((r) => r.agentName);
  }

  /** Fails every queued event of an agent (it was deleted), returning them. */
  failQueued(agentName: string, now: number): EventRow[] {
    return this.db
      .update(systemEvents)
      .set({ state: 'failed', processedAt: now })
      .where(and(eq(systemEvents.agentName, agentName), eq(systemEvents.state, 'queued')))
      .returning()
      .all();
  }

  page(
    filter: { agentName?: string; state?: EventState },
    limit: number,
    cursor?: { at: number; id: string }
  ): EventRow[] {
    const where = [
      filter.agentName ? eq(systemEvents.agentName, filter.agentName) : undefined,
      filter.state ? eq(systemEvents.state, filter.state) : undefined,
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
