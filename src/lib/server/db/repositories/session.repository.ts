import { and, asc, desc, eq, exists, getTableColumns, gt, gte, lt, or, sql } from 'drizzle-orm';
import type { SessionFilter } from '$lib/contracts/sessions';
import { containsText } from './like';
import type { Db } from '../client';
import { chatSessions, messages, turns, type InputTrust } from '../schema';
import { nextSeq } from './turn.repository';

export type ChatSessionRow = typeof chatSessions.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

export class SessionRepository {
  constructor(private readonly db: Db) {}

  byId(id: string): (ChatSessionRow & { messageCount: number }) | undefined {
    return this.db
      .select({ ...sessionColumns(), messageCount: messageCount() })
      .from(chatSessions)
      .where(eq(chatSessions.id, id))
      .get();
  }

  byKey(agentName: string, key: string): ChatSessionRow | undefined {
    return this.db
      .select()
      .from(chatSessions)
      .where(and(eq(chatSessions.agentName, agentName), eq(chatSessions.key, key)))
      .get();
  }

  /** Most recently active first; the cursor is the last row's (updatedAt, id). */
  page(filter: SessionFilter, limit: number, cursor?: { at: number; id: string }) {
    const where = [
      filter.agent ? eq(chatSessions.agentName, filter.agent) : undefined,
      filter.since !== undefined ? gte(chatSessions.updatedAt, filter.since) : undefined,
      filter.until !== undefined ? lt(chatSessions.updatedAt, filter.until) : undefined,
      filter.search ? containsText(chatSessions.key, filter.search) : undefined,
      filter.channel
        ? exists(
            this.db
              .select({ one: sql`1` })
              .from(messages)
              .where(
                and(eq(messages.sessionId, chatSessions.id), eq(messages.channel, filter.channel))
              )
          )
        : undefined,
      cursor
        ? or(
            lt(chatSessions.updatedAt, cursor.at),
            and(eq(chatSessions.updatedAt, cursor.at), lt(chatSessions.id, cursor.id))
          )
        : undefined
    ].filter((w) => w !== undefined);
    return this.db
      .select({ ...sessionColumns(), messageCount: messageCount() })
      .from(chatSessions)
      .where(where.length ? and(...where) : undefined)
      .orderBy(desc(chatSessions.updatedAt), desc(chatSessions.id))
      .limit(limit)
      .all();
  }

  /** The newest `limit` messages before `beforeSeq`, returned oldest first. */
  messages(sessionId: string, limit: number, beforeSeq?: number): MessageRow[] {
    const where =
      beforeSeq === undefined
        ? eq(messages.sessionId, sessionId)
        : and(eq(messages.sessionId, sessionId), lt(messages.seq, beforeSeq));
    return this.db
      .select()
      .from(messages)
      .where(where)
      .orderBy(desc(messages.seq))
      .limit(limit)
      .all()
      .reverse();
  }

  /** A turn's messages in order: the user's input, its tool calls and the reply. */
  turnMessages(sessionId: string, turnId: string): MessageRow[] {
    return this.db
      .select()
      .from(messages)
      .where(and(eq(messages.sessionId, sessionId), eq(messages.turnId, turnId)))
      .orderBy(asc(messages.seq))
      .all();
  }

  messageSeq(messageId: string): number | undefined {
    return this.db
      .select({ seq: messages.seq })
      .from(messages)
      .where(eq(messages.id, messageId))
      .get()?.seq;
  }

  /**
   * The newest `limit` messages, oldest first, for a provider's history. Each carries the trust
   * of its turn, the reply too (it may quote the input); external when that turn is gone.
   */
  history(sessionId: string, limit: number): (MessageRow & { trust: InputTrust })[] {
    return this.db
      .select({ ...getTableColumns(messages), turnTrust: turns.trust })
      .from(messages)
      .leftJoin(turns, eq(turns.id, messages.turnId))
      .where(eq(messages.sessionId, sessionId))
      .orderBy(desc(messages.seq))
      .limit(limit)
      .all()
      .reverse()
      .map(({ turnTrust, ...m }) => ({ ...m, trust: turnTrust ?? 'external' }));
  }

  appendMessage(
    sessionId: string,
    row: Omit<typeof messages.$inferInsert, 'sessionId' | 'seq'>
  ): MessageRow {
    return this.db.transaction((tx) => {
      const seq = nextSeq(tx, sessionId);
      tx.update(chatSessions)
        .set({ updatedAt: row.createdAt })
        .where(eq(chatSessions.id, sessionId))
        .run();
      return tx
        .insert(messages)
        .values({ ...row, sessionId, seq })
        .returning()
        .get();
    });
  }

  getOrCreate(agentName: string, key: string, now: number): ChatSessionRow {
    const existing = this.byKey(agentName, key);
    if (existing) return existing;
    this.db
      .insert(chatSessions)
      .values({ id: crypto.randomUUID(), agentName, key, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .run();
    return this.byKey(agentName, key)!;
  }

  /** Replaces all but the newest `keep` messages with a summary; returns how many went. */
  compact(
    sessionId: string,
    keep: number,
    summarize: (old: MessageRow[], previous: string | null) => string,
    now: number
  ) {
    return this.db.transaction((tx) => {
      const session = tx.select().from(chatSessions).where(eq(chatSessions.id, sessionId)).get();
      if (!session) return undefined;
      const all = tx
        .select()
        .from(messages)
        .where(eq(messages.sessionId, sessionId))
        .orderBy(asc(messages.seq))
        .all();
      const old = all.slice(0, Math.max(0, all.length - keep));
      if (!old.length) return { removed: 0, summary: session.summary ?? '' };
      const summary = summarize(old, session.summary);
      const lastOld = old[old.length - 1]!.seq;
      tx.delete(messages)
        .where(and(eq(messages.sessionId, sessionId), lt(messages.seq, lastOld + 1)))
        .run();
      tx.update(chatSessions)
        .set({ summary, compactedMessages: session.compactedMessages + old.length, updatedAt: now })
        .where(eq(chatSessions.id, sessionId))
        .run();
      return { removed: old.length, summary };
    });
  }

  delete(sessionId: string): ChatSessionRow | undefined {
    return this.db.delete(chatSessions).where(eq(chatSessions.id, sessionId)).returning().get();
  }

  countMessages(filter: { since?: number; until?: number }): number {
    const where = [
      filter.since ? gt(messages.createdAt, filter.since - 1) : undefined,
      filter.until ? lt(messages.createdAt, filter.until) : undefined
    ].filter((w) => w !== undefined);
    return (
      this.db
        .select({ n: sql<number>`count(*)` })
        .from(messages)
        .where(where.length ? and(...where) : undefined)
        .get()?.n ?? 0
    );
  }
}

function sessionColumns() {
  return {
    id: chatSessions.id,
    agentName: chatSessions.agentName,
    key: chatSessions.key,
    summary: chatSessions.summary,
    compactedMessages: chatSessions.compactedMessages,
    createdAt: chatSessions.createdAt,
    updatedAt: chatSessions.updatedAt
  };
}

/**
 * Columns are qualified by hand: in a one-table select drizzle renders them bare, and a bare
 * "id" inside this subquery would be the message's own id (the count was always 0).
 */
function messageCount() {
  const owner = sql`${messages}.${sql.identifier(messages.sessionId.name)}`;
  const session = sql`${chatSessions}.${sql.identifier(chatSessions.id.name)}`;
  return sql<number>`(select count(*) from ${messages} where ${owner} = ${session})`;
}
