import type { MessageRecord, SessionRecord } from '$lib/contracts/assistant';
import type { SessionFilter } from '$lib/contracts/sessions';
import type {
  ChatSessionRow,
  MessageRow,
  SessionRepository
} from '../../db/repositories/session.repository';
import type { Actor, AuditService } from '../audit/audit.service';
import type { DomainBus } from '../bus';
import { decodeCursor, paginate } from '../cursor';
import { invalid, notFound } from '../../errors';

/** Messages kept verbatim by a compaction; older ones become the summary. */
const KEEP_AFTER_COMPACTION = 4;

/** Agents' conversations and their messages; the console's sign-ins are LoginSessionService. */
export class ChatSessionService {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly bus: DomainBus,
    private readonly audit: AuditService
  ) {}

  list(filter: SessionFilter, limit: number, cursor?: string) {
    const rows = this.sessions.page(filter, limit + 1, decodeCursor(cursor));
    const { items, nextCursor } = paginate(rows, limit, (r) => [r.updatedAt, r.id], toRecord);
    return { sessions: items, nextCursor };
  }

  /** The session and its newest messages (oldest first); `before` is a message id. */
  get(
    sessionId: string,
    limit: number,
    before?: string
  ): { session: SessionRecord; messages: MessageRecord[] } {
    const session = this.sessions.byId(sessionId);
    if (!session) throw notFound('Session');
    let beforeSeq: number | undefined;
    if (before !== undefined) {
      beforeSeq = this.sessions.messageSeq(before);
      if (beforeSeq === undefined) throw invalid('before: no such message');
    }
    return {
      session: toRecord(session),
      messages: this.sessions.messages(sessionId, limit, beforeSeq).map(toMessage)
    };
  }

  /** Folds all but the newest messages into the summary; a console user's is audited. */
  compact(
    sessionId: string,
    actor?: Actor
  ): { sessionId: string; compactedMessages: number; summary: string } {
    const result = this.sessions.compact(sessionId, KEEP_AFTER_COMPACTION, summarize, Date.now());
    if (!result) throw notFound('Session');
    const session = this.sessions.byId(sessionId)!;
    if (actor)
      this.audit.record(actor, 'session.compact', `${session.agentName}/${session.key}`, {
        messages: result.removed
      });
    this.bus.emit('session.changed', {
      sessionId,
      agentName: session.agentName,
      change: 'compacted'
    });
    return { sessionId, compactedMessages: result.removed, summary: result.summary };
  }

  delete(sessionId: string, actor?: Actor): { sessionId: string; deleted: true } {
    const row = this.sessions.delete(sessionId);
    if (!row) throw notFound('Session');
    if (actor) this.audit.record(actor, 'session.delete', `${row.agentName}/${row.key}`);
    this.bus.emit('session.changed', { sessionId, agentName: row.agentName, change: 'deleted' });
    return { sessionId, deleted: true };
  }
}

/** The offline summary: who said what, first line of each, bounded in length. */
function summarize(old: MessageRow[], previous: string | null): string {
  const lines = old.map((m) => `${m.role}: ${(m.content.split('\n')[0] ?? '').slice(0, 120)}`);
  const text = [previous, ...lines].filter(Boolean).join('\n');
  return text.length > 4000 ? `…${text.slice(-4000)}` : text;
}

function toRecord(row: ChatSessionRow & { messageCount: number }): SessionRecord {
  return {
    sessionId: row.id,
    agentName: row.agentName,
    key: row.key,
    messageCount: row.messageCount,
    summary: row.summary ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt
  };
}

export function toMessage(row: MessageRow): MessageRecord {
  return {
    messageId: row.id,
    role: row.role,
    content: row.content,
    turnId: row.turnId ?? null,
    channel: row.channel ?? null,
    userId: row.userId ?? null,
    createdAt: row.createdAt
  };
}
