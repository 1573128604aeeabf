import { and, gte, lt, sql, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { messages, requestCounts, turns } from '../schema';

export interface UsageFilter {
  since?: number;
  until?: number;
  agentName?: string;
  sessionId?: string;
  credential?: string;
}

/** Turns from before the credential was recorded are counted under this name. */
export const UNKNOWN_CREDENTIAL = 'unknown';

const BY_SESSION_LIMIT = 50;

export class UsageRepository {
  constructor(private readonly db: Db) {}

  /** Turn and token counts by agent and day (UTC). */
  turnsByAgentDay(filter: UsageFilter) {
    const where = turnWhere(filter);
    return this.db
      .select({
        agentName: turns.agentName,
        day: sql<string>`strftime('%Y-%m-%d', ${turns.queuedAt} / 1000, 'unixepoch')`,
        turns: sql<number>`count(*)`,
        prompt: sql<number>`coalesce(sum(${turns.promptTokens}), 0)`,
        completion: sql<number>`coalesce(sum(${turns.completionTokens}), 0)`
      })
      .from(turns)
      .where(where.length ? and(...where) : undefined)
      .groupBy(turns.agentName, sql`2`)
      .all();
  }

  /** Turns, tokens and the turns' messages by the credential that caused them. */
  byCredential(filter: UsageFilter) {
    const where = turnWhere(filter);
    const credential = sql<string>`coalesce(${turns.credential}, ${UNKNOWN_CREDENTIAL})`;
    return this.db
      .select({
        credential,
        turns: sql<number>`count(*)`,
        prompt: sql<number>`coalesce(sum(${turns.promptTokens}), 0)`,
        completion: sql<number>`coalesce(sum(${turns.completionTokens}), 0)`,
        messages: sql<number>`coalesce(sum(${turnMessages}), 0)`
      })
      .from(turns)
      .where(where.length ? and(...where) : undefined)
      .groupBy(sql`1`)
      .all();
  }

  /** The sessions with the most tokens (at most BY_SESSION_LIMIT), most first. */
  bySession(filter: UsageFilter) {
    const where = turnWhere(filter);
    return this.db
      .select({
        sessionId: turns.sessionId,
        agentName: sql<string>`max(${turns.agentName})`,
        turns: sql<number>`count(*)`,
        prompt: sql<number>`coalesce(sum(${turns.promptTokens}), 0)`,
        completion: sql<number>`coalesce(sum(${turns.completionTokens}), 0)`,
        messages: sql<number>`coalesce(sum(${turnMessages}), 0)`
      })
      .from(turns)
      .where(where.length ? and(...where) : undefined)
      .groupBy(turns.sessionId)
      .orderBy(sql`sum(${turns.promptTokens}) + sum(${turns.completionTokens}) desc`)
      .limit(BY_SESSION_LIMIT)
      .all();
  }

  /** Message counts by agent and day, through their sessions (and turns, for a credential). */
  messagesByAgentDay(filter: UsageFilter) {
    const where = [
      filter.since !== undefined ? gte(messages.createdAt, filter.since) : undefined,
      filter.until !== undefined ? lt(messages.createdAt, filter.until) : undefined,
      filter.agentName ? sql`s.agent_name = ${filter.agentName}` : undefined,
      filter.sessionId ? eq(messages.sessionId, filter.sessionId) : undefined,
      filter.credential
        ? sql`${messages.turnId} in (select id from ${turns} where coalesce(${turns.credential}, ${UNKNOWN_CREDENTIAL}) = ${filter.credential})`
        : undefined
    ].filter((w) => w !== undefined);
    return this.db
      .select({
        agentName: sql<string>`s.agent_name`,
        day: sql<string>`strftime('%Y-%m-%d', ${messages.createdAt} / 1000, 'unixepoch')`,
        messages: sql<number>`count(*)`
      })
      .from(messages)
      .innerJoin(sql`chat_sessions s`, sql`s.id = ${messages.sessionId}`)
      .where(where.length ? and(...where) : undefined)
      .groupBy(sql`1`, sql`2`)
      .all();
  }

  /** Adds counts to the per-day request counters in one transaction. */
  addRequests(
    rows: {
      day: string;
      iface: string;
      route: string;
      status: number;
      token: string;
      count: number;
    }[]
  ): void {
    if (!rows.length) return;
    this.db.transaction((tx) => {
      for (const row of rows)
        tx.insert(requestCounts)
          .values({ ...row, id: `${row.day}|${row.iface}|${row.route}|${row.status}|${row.token}` })
          .onConflictDoUpdate({
            target: requestCounts.id,
            set: { count: sql`${requestCounts.count} + ${row.count}` }
          })
          .run();
    });
  }

  requests(filter: { sinceDay?: string; untilDay?: string }) {
    const where = [
      filter.sinceDay ? gte(requestCounts.day, filter.sinceDay) : undefined,
      filter.untilDay ? lt(requestCounts.day, filter.untilDay) : undefined
    ].filter((w) => w !== undefined);
    return this.db
      .select({
        iface: requestCounts.iface,
        route: requestCounts.route,
        status: requestCounts.status,
        token: requestCounts.token,
        count: sql<number>`sum(${requestCounts.count})`
      })
      .from(requestCounts)
      .where(where.length ? and(...where) : undefined)
      .groupBy(requestCounts.iface, requestCounts.route, requestCounts.status, requestCounts.token)
      .all();
  }
}

function turnWhere(filter: UsageFilter) {
  return [
    filter.since !== undefined ? gte(turns.queuedAt, filter.since) : undefined,
    filter.until !== undefined ? lt(turns.queuedAt, filter.until) : undefined,
    filter.agentName ? eq(turns.agentName, filter.agentName) : undefined,
    filter.sessionId ? eq(turns.sessionId, filter.sessionId) : undefined,
    filter.credential
      ? sql`coalesce(${turns.credential}, ${UNKNOWN_CREDENTIAL}) = ${filter.credential}`
      : undefined
  ].filter((w) => w !== undefined);
}

/**
 * The messages of the outer row's turn. The id is qualified by hand: drizzle renders a bare
 * "id" in a one-table select, which inside this subquery would be the message's own.
 */
const turnMessages = sql`(select count(*) from ${messages} m where m.turn_id = ${turns}.${sql.identifier(turns.id.name)})`;
