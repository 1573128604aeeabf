import { and, asc, desc, eq, gte, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { chatSessions, messages, turns, type TurnState } from '../schema';

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

  constructor(private readonly db: Db) {
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
    return this.db.update(turns).set(patch).where(eq(turns.id, id)).returning().get();
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
        let session = tx
          .select({ id: chatSessions.id })
          .from(chatSessions)
          .where(
            and(eq(chatSessions.agentName, args.agentName), eq(chatSessions.key, args.sessionKey))
          )
          .get();
        let sessionCreated = false;
        if (!session) {
          session = tx
            .insert(chatSessions)
            .values({
              id: crypto.randomUUID(),
              agentName: args.agentName,
              key: args.sessionKey,
              createdAt: args.now,
              updatedAt: args.now
            })
            .returning({ id: chatSessions.id })
            .get();
          sessionCreated = true;
        } else
          tx.update(chatSessions)
            .set({ updatedAt: args.now })
            .where(eq(chatSessions.id, session.id))
            .run();
        const seq = nextSeq(this.db, session.id);
        tx.insert(messages)
          .values({
            id: args.message.id,
            sessionId: session.id,
            seq,
            role: 'user',
            content: args.message.content,
            turnId: args.turn.id,
            channel: args.message.channel,
            userId: args.message.userId,
            createdAt: args.now
          })
          .run();
        const turn = tx
          .insert(turns)
          .values({
            ...args.turn,
            agentName: args.agentName,
            sessionId: session.id,
            messageId: args.message.id
          })
          .returning()
          .get();
        return { turn, sessionId: session.id, sessionCreated };
      },
      { behavior: 'immediate' }
    );
  }
}

/** The statement behind nextSeq, compiled once per connection: every message is numbered by it. */
const lastSeqs = new WeakMap<Db, ReturnType<typeof lastSeqOf>>();
const lastSeqOf = (db: Db) =>
  db
    .select({ max: sql<number | null>`max(${messages.seq})` })
    .from(messages)
    .where(eq(messages.sessionId, sql.placeholder('sessionId')))
    .prepare();

/** The number the session's next message takes (run in the transaction that inserts it). */
export function nextSeq(db: Db, sessionId: string): number {
  let lastSeq = lastSeqs.get(db);
  if (!lastSeq) lastSeqs.set(db, (lastSeq = lastSeqOf(db)));
  return (lastSeq.get({ sessionId })?.max ?? 0) + 1;
}
