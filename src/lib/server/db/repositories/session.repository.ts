import {
  and,
  asc,
  desc,
  eq,
  exists,
  getTableColumns,
  gt,
  gte,
  inArray,
  isNull,
  lt,
  lte,
  or,
  sql
} from 'drizzle-orm';
import type { SessionFilter } from '$lib/contracts/sessions';
import { containsText } from './like';
import type { Db } from '../client';
import { chatSessions, messages, sessionSummaries, turns, type InputTrust } from '../schema';
import {
  definedOnly,
  insertMessage,
  touchSession,
  type MessageRow,
  type NewMessage
} from './message-writes';
import { everyColumn } from './placeholders';

export type ChatSessionRow = typeof chatSessions.$inferSelect;
export type { MessageRow };
export type SummaryRow = typeof sessionSummaries.$inferSelect;

export class SessionRepository {
  /** Compiled once: every turn reads its session's summary, its history and its input. */
  readonly #brief;
  readonly #history;
  readonly #content;
  /** Compiled once: a busy session is measured after every turn and compacted every few. */
  readonly #compaction;

  constructor(private readonly db: Db) {
    this.#compaction = compactionStatements(db);
    this.#brief = db
      .select({
        agentName: chatSessions.agentName,
        key: chatSessions.key,
        summary: chatSessions.summary
      })
      .from(chatSessions)
      .where(eq(chatSessions.id, sql.placeholder('id')))
      .prepare();
    this.#history = db
      .select({ ...getTableColumns(messages), turnTrust: turns.trust })
      .from(messages)
      .leftJoin(turns, eq(turns.id, messages.turnId))
      .where(
        and(eq(messages.sessionId, sql.placeholder('sessionId')), isNull(messages.compactedBy))
      )
      .orderBy(desc(messages.seq))
      .limit(sql.placeholder('limit'))
      .prepare();
    this.#content = db
      .select({ content: messages.content })
      .from(messages)
      .where(eq(messages.id, sql.placeholder('id')))
      .prepare();
  }

  /** The whole session with its message count (which counts every message it holds). */
  byId(id: string): (ChatSessionRow & { messageCount: number }) | undefined {
    return this.db
      .select({ ...sessionColumns(), messageCount: messageCount() })
      .from(chatSessions)
      .where(eq(chatSessions.id, id))
      .get();
  }

  /** What a turn or a compaction needs of a session, without counting its messages. */
  brief(id: string): Pick<ChatSessionRow, 'agentName' | 'key' | 'summary'> | undefined {
    return this.#brief.get({ id });
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

  /** A message's text (a turn's input lives in its user message: turnInput). */
  messageContent(messageId: string): string | undefined {
    return this.#content.get({ id: messageId })?.content;
  }

  messageSeq(messageId: string): number | undefined {
    return this.db
      .select({ seq: messages.seq })
      .from(messages)
      .where(eq(messages.id, messageId))
      .get()?.seq;
  }

  /**
   * The newest `limit` uncompacted messages, oldest first, for a provider's history (the
   * summary stands for the compacted ones). Each carries the trust of its turn, the reply too
   * (it may quote the input); external when that turn is gone.
   */
  history(sessionId: string, limit: number): (MessageRow & { trust: InputTrust })[] {
    return this.#history
      .all({ sessionId, limit })
      .reverse()
      .map(({ turnTrust, ...m }) => ({ ...m, trust: turnTrust ?? 'external' }));
  }

  appendMessage(sessionId: string, row: NewMessage): MessageRow {
    return this.db.transaction(() => {
      touchSession(this.db, sessionId, row.createdAt);
      return insertMessage(this.db, sessionId, row);
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

  /**
   * The oldest uncompacted messages (at most `limit`, oldest first) that are not among the
   * newest `keep` uncompacted ones: what one compaction chunk summarises.
   */
  compactable(sessionId: string, keep: number, limit: number): MessageRow[] {
    const cutoff = this.#compaction.cutoff.get({ sessionId, offset: keep - 1 })?.seq;
    if (cutoff === undefined) return [];
    return this.#compaction.before.all({ sessionId, cutoff, limit });
  }

  /** Characters of the uncompacted messages and the summary: the size estimate's base. */
  uncompactedChars(sessionId: string): number {
    const messageChars = this.#compaction.messageChars.get({ sessionId })?.n ?? 0;
    return messageChars + (this.#compaction.summaryChars.get({ sessionId })?.n ?? 0);
  }

  /**
   * One compaction chunk, in one commit: its record, its messages marked compacted by it
   * (kept, never deleted), and the session's running summary replaced by it.
   */
  recordSummary(row: typeof sessionSummaries.$inferInsert): SummaryRow | undefined {
    const c = this.#compaction;
    return this.db.transaction(() => {
      const session = c.session.get({ sessionId: row.sessionId });
      if (!session) return undefined;
      const summary: SummaryRow = { model: null, ...definedOnly(row) };
      c.insertSummary.run(summary);
      const marked = c.mark.run({
        sessionId: row.sessionId,
        summaryId: row.id,
        fromSeq: row.fromSeq,
        toSeq: row.toSeq
      }).changes;
      c.replaceSummary.run({
        sessionId: row.sessionId,
        summary: row.summary,
        compacted: session.compactedMessages + marked,
        at: row.createdAt
      });
      return summary;
    });
  }

  /** The summary records by id (those a transcript page's messages point at). */
  summaries(ids: string[]): SummaryRow[] {
    if (!ids.length) return [];
    return this.db
      .select()
      .from(sessionSummaries)
      .where(inArray(sessionSummaries.id, ids))
      .orderBy(asc(sessionSummaries.toSeq))
      .all();
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

/** The statements of compaction and of the size check after each turn. */
function compactionStatements(db: Db) {
  const p = sql.placeholder;
  const uncompacted = and(eq(messages.sessionId, p('sessionId')), isNull(messages.compactedBy));
  return {
    cutoff: db
      .select({ seq: messages.seq })
      .from(messages)
      .where(uncompacted)
      .orderBy(desc(messages.seq))
      .limit(1)
      .offset(p('offset'))
      .prepare(),
    before: db
      .select()
      .from(messages)
      .where(and(uncompacted, lt(messages.seq, p('cutoff'))))
      .orderBy(asc(messages.seq))
      .limit(p('limit'))
      .prepare(),
    messageChars: db
      .select({ n: sql<number>`coalesce(sum(length(${messages.content})), 0)` })
      .from(messages)
      .where(uncompacted)
      .prepare(),
    summaryChars: db
      .select({ n: sql<number>`coalesce(length(${chatSessions.summary}), 0)` })
      .from(chatSessions)
      .where(eq(chatSessions.id, p('sessionId')))
      .prepare(),
    session: db
      .select({ compactedMessages: chatSessions.compactedMessages })
      .from(chatSessions)
      .where(eq(chatSessions.id, p('sessionId')))
      .prepare(),
    insertSummary: db.insert(sessionSummaries).values(everyColumn(sessionSummaries)).prepare(),
    mark: db
      .update(messages)
      .set({ compactedBy: sql`${p('summaryId')}` })
      .where(
        and(
          eq(messages.sessionId, p('sessionId')),
          isNull(messages.compactedBy),
          gte(messages.seq, p('fromSeq')),
          lte(messages.seq, p('toSeq'))
        )
      )
      .prepare(),
    replaceSummary: db
      .update(chatSessions)
      .set({
        summary: sql`${p('summary')}`,
        compactedMessages: sql`${p('compacted')}`,
        updatedAt: sql`${p('at')}`
      })
      .where(eq(chatSessions.id, p('sessionId')))
      .prepare()
  };
}
