import { and, asc, desc, eq, gte, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { chatSessions, turns, type TurnState } from '../schema';
import { definedOnly, insertMessage, sessionIdByKey, touchSession } from './message-writes';
import { everyColumn } from './placeholders';

export type TurnRow = typeof turns.$inferSelect;
export type NewTurnRow = typeof turns.$inferInsert;
export interface TurnFilter {
  agentName?: string;
  state?: TurnState;
  sessionId?: string;
  source?: string;
  /** Queued at or after / before (epoch ms). */
  since?: number;
  until?: number;
}

export class TurnRepository {
  /** Compiled once: every turn starts through it, a heartbeat backlog a hundred events each. */
  readonly #claimNext;
  readonly #insert;
  /** A turn's end, compiled once per set of columns it writes (one set per way a turn ends). */
  readonly #finishes = new Map<string, ReturnType<TurnRepository['compileFinish']>>();

  constructor(private readonly db: Db) {
    this.#insert = db.insert(turns).values(everyColumn(turns)).prepare();
    this.#claimNext = db
      .update(turns)
      .set({
        state: 'running',
        startedAt: sql`${sql.placeholder('now')}`,
        attempts: sql`${turns.attempts} + 1`
      })
      .where(
        eq(
          turns.id,
          db
            .select({ id: turns.id })
            .from(turns)
            .where(
              and(eq(turns.state, 'queued'), eq(turns.agentName, sql.placeholder('agentName')))
            )
            .orderBy(asc(turns.queuedAt))
            .limit(1)
        )
      )
      .returning()
      .prepare();
  }

  insert(row: NewTurnRow): TurnRow {
    return this.db.insert(turns).values(row).returning().get();
  }

  byId(id: string): TurnRow | undefined {
    return this.db.select().from(turns).where(eq(turns.id, id)).get();
  }

  /** Marks the oldest queued turn of an agent running, atomically; undefined when none waits. */
  claimNext(agentName: string, now: number): TurnRow | undefined {
    return this.#claimNext.get({ agentName, now });
  }

  /** Runs `work` in one immediate transaction: a turn's reply and its new state commit together. */
  atomically<T>(work: () => T): T {
    return this.db.transaction(() => work(), { behavior: 'immediate' });
  }

  finish(id: string, patch: Pick<TurnRow, 'state'> & Partial<TurnRow>): TurnRow | undefined {
    const set = definedOnly(patch);
    const columns = Object.keys(set).sort().join(',');
    let statement = this.#finishes.get(columns);
    if (!statement) this.#finishes.set(columns, (statement = this.compileFinish(Object.keys(set))));
    return statement.get({ ...set, turnId: id });
  }

  /** `update turns set <columns> where id = :turnId returning *`, from placeholders. */
  private compileFinish(columns: string[]) {
    const set = Object.fromEntries(columns.map((c) => [c, sql.placeholder(c)]));
    return this.db
      .update(turns)
      .set(set as Partial<TurnRow>)
      .where(eq(turns.id, sql.placeholder('turnId')))
      .returning()
      .prepare();
  }

  /** After a crash: turns left running are queued again, or failed after too many attempts. */
  recover(maxAttempts: number, now: number): { requeued: number; failed: number } {
    return this.db.transaction((tx) => {
      const failed = tx
        .update(turns)
        .set({ state: 'failed', error: 'interrupted by a restart too many times', finishedAt: now })
        .where(and(eq(turns.state, 'running'), sql`${turns.attempts} >= ${maxAttempts}`))
        .run().changes;
      const requeued = tx
        .update(turns)
        .set({ state: 'queued', startedAt: null })
        .where(eq(turns.state, 'running'))
        .run().changes;
      return { requeued, failed };
    });
  }

  /** Cancels every queued turn of an agent, returning them. */
  cancelQueued(agentName: string, error: string, now: number): TurnRow[] {
    return this.db
      .update(turns)
      .set({ state: 'cancelled', error, finishedAt: now })
      .where(and(eq(turns.state, 'queued'), eq(turns.agentName, agentName)))
      .returning()
      .all();
  }

  /** One queued turn cancelled; undefined when it was no longer queued. */
  cancelOneQueued(id: string, error: string, now: number): TurnRow | undefined {
    return this.db
      .update(turns)
      .set({ state: 'cancelled', error, finishedAt: now })
      .where(and(eq(turns.id, id), eq(turns.state, 'queued')))
      .returning()
      .get();
  }

  agentsWithQueued(): string[] {
    return this.db
      .selectDistinct({ agentName: turns.agentName })
      .from(turns)
      .where(eq(turns.state, 'queued'))
      .all()
      .map((r) => r.agentName);
  }

  countByState(agentName: string, states: TurnState[]): number {
    return (
      this.db
        .select({ n: sql<number>`count(*)` })
        .from(turns)
        .where(and(eq(turns.agentName, agentName), inArray(turns.state, states)))
        .get()?.n ?? 0
    );
  }

  lastFinished(agentName: string): TurnRow | undefined {
    return this.db
      .select()
      .from(turns)
      .where(and(eq(turns.agentName, agentName), inArray(turns.state, ['completed', 'failed'])))
      .orderBy(desc(turns.finishedAt))
      .limit(1)
      .get();
  }

  /** Newest first; the cursor is the last row's (queuedAt, id). */
  page(filter: TurnFilter, limit: number, cursor?: { at: number; id: string }): TurnRow[] {
    const where = [
      filter.agentName ? eq(turns.agentName, filter.agentName) : undefined,
      filter.state ? eq(turns.state, filter.state) : undefined,
      filter.sessionId ? eq(turns.sessionId, filter.sessionId) : undefined,
      filter.source ? eq(turns.source, filter.source) : undefined,
      filter.since !== undefined ? gte(turns.queuedAt, filter.since) : undefined,
      filter.until !== undefined ? lt(turns.queuedAt, filter.until) : undefined,
      cursor
        ? or(
            lt(turns.queuedAt, cursor.at),
            and(eq(turns.queuedAt, cursor.at), lt(turns.id, cursor.id))
          )
        : undefined
    ].filter((w) => w !== undefined);
    return this.db
      .select()
      .from(turns)
      .where(where.length ? and(...where) : undefined)
      .orderBy(desc(turns.queuedAt), desc(turns.id))
      .limit(limit)
      .all();
  }

  /** The user message and the queued turn, with the session made if new: one commit. */
  enqueueWithMessage(args: {
    agentName: string;
    sessionKey: string;
    turn: Omit<NewTurnRow, 'sessionId' | 'messageId' | 'agentName'>;
    message: { id: string; content: string; channel: string | null; userId: string | null };
    now: number;
  }): { turn: TurnRow; sessionId: string; sessionCreated: boolean } {
    return this.db.transaction(
      (tx) => {
        let sessionId = sessionIdByKey(this.db, args.agentName, args.sessionKey);
        const sessionCreated = sessionId === undefined;
        if (sessionId === undefined) {
          sessionId = crypto.randomUUID();
          tx.insert(chatSessions)
            .values({
              id: sessionId,
              agentName: args.agentName,
              key: args.sessionKey,
              createdAt: args.now,
              updatedAt: args.now
            })
            .run();
        } else touchSession(this.db, sessionId, args.now);
        insertMessage(this.db, sessionId, {
          id: args.message.id,
          role: 'user',
          content: args.message.content,
          turnId: args.turn.id,
          channel: args.message.channel,
          userId: args.message.userId,
          createdAt: args.now
        });
        const turn: TurnRow = {
          ...TURN_DEFAULTS,
          ...definedOnly(args.turn),
          agentName: args.agentName,
          sessionId,
          messageId: args.message.id
        };
        this.#insert.run({
          ...turn,
          context: turn.context === null ? null : JSON.stringify(turn.context)
        });
        return { turn, sessionId, sessionCreated };
      },
      { behavior: 'immediate' }
    );
  }
}

/** What a new turn holds where its caller says nothing: the columns' own defaults. */
const TURN_DEFAULTS = {
  model: null,
  channel: null,
  userId: null,
  context: null,
  delivery: 'none',
  credential: null,
  trust: 'external',
  messageId: null,
  result: null,
  error: null,
  promptTokens: 0,
  completionTokens: 0,
  attempts: 0,
  startedAt: null,
  finishedAt: null
} satisfies Omit<
  TurnRow,
  'id' | 'sessionId' | 'agentName' | 'state' | 'source' | 'input' | 'queuedAt'
>;
