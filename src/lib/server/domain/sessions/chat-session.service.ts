import type {
  MessageRecord,
  SessionRecord,
  SummaryRecord,
  TurnRecord
} from '$lib/contracts/assistant';
import type { SessionFilter } from '$lib/contracts/sessions';
import type {
  ChatSessionRow,
  MessageRow,
  SessionRepository,
  SummaryRow
} from '../../db/repositories/session.repository';
import type { Actor, AuditService } from '../audit/audit.service';
import type { DomainBus } from '../bus';
import { decodeCursor, paginate } from '../cursor';
import { invalid, notFound } from '../../errors';
import type { Summarizer } from './summarizer';
import { RecentMap } from '../recent-map';

/** The longest one compaction may take (a slow model summarising many chunks). */
const COMPACT_TIMEOUT_MS = 300_000;

/** Messages one compaction chunk summarises: a long session is folded in bounded pieces. */
const CHUNK_MESSAGES = 100;

export interface CompactionSettings {
  /** Compact on its own once the session's size estimate reaches this (0: never). */
  budgetTokens: number;
  /** The newest uncompacted messages a compaction leaves as they are. */
  keepMessages: number;
}

export interface CompactResult {
  sessionId: string;
  compactedMessages: number;
  summary: string;
}

/** Sessions whose size is followed in memory at most (ChatSessionService's #chars). */
const SESSIONS_FOLLOWED = 10_000;

/** Agents' conversations and their messages; the console's sign-ins are LoginSessionService. */
export class ChatSessionService {
  /** One compaction per session at a time; a second request joins the running one. */
  readonly #compacting = new Map<string, Promise<CompactResult>>();
  /**
   * Characters of a session's uncompacted messages and summary, read once and then followed
   * from message.created; forgotten when a compaction or a deletion touches the session, and
   * past the 10,000 sessions last used (a webhook sender may make a session per call; a
   * forgotten one is read again). Summing them anew after every turn read each uncompacted
   * message's whole text.
   */
  readonly #chars = new RecentMap<string, number>(SESSIONS_FOLLOWED);

  constructor(
    private readonly sessions: SessionRepository,
    private readonly bus: DomainBus,
    private readonly audit: AuditService,
    private readonly summarize: Summarizer,
    private readonly settings: (agentName: string) => CompactionSettings
  ) {
    bus.on('turn.changed', (turn) => {
      if (turn.state === 'completed') this.#compactIfDue(turn);
    });
    bus.on('message.created', ({ sessionId, content }) => {
      const chars = this.#chars.get(sessionId);
      if (chars !== undefined) this.#chars.set(sessionId, chars + content.length);
    });
    bus.on('session.changed', ({ sessionId }) => this.#chars.delete(sessionId));
  }

  list(filter: SessionFilter, limit: number, cursor?: string) {
    const rows = this.sessions.page(filter, limit + 1, decodeCursor(cursor));
    const { items, nextCursor } = paginate(rows, limit, (r) => [r.updatedAt, r.id], toRecord);
    return { sessions: items, nextCursor };
  }

  /**
   * The session and a page of its messages (the newest `limit` before `before`, a message id;
   * oldest first), compacted ones included, with the summaries those stand behind.
   */
  get(
    sessionId: string,
    limit: number,
    before?: string
  ): { session: SessionRecord; messages: MessageRecord[]; summaries: SummaryRecord[] } {
    const session = this.sessions.byId(sessionId);
    if (!session) throw notFound('Session');
    let beforeSeq: number | undefined;
    if (before !== undefined) {
      beforeSeq = this.sessions.messageSeq(before);
      if (beforeSeq === undefined) throw invalid('before: no such message');
    }
    const page = this.sessions.messages(sessionId, limit, beforeSeq);
    const ids = [...new Set(page.map((m) => m.compactedBy).filter((id) => id !== null))];
    return {
      session: toRecord(session),
      messages: page.map(toMessage),
      summaries: this.sessions.summaries(ids).map(toSummary)
    };
  }

  /**
   * Folds all but the newest `keepMessages` uncompacted messages into the summary, in chunks
   * of CHUNK_MESSAGES (one summary record each). The messages are kept and stay readable;
   * later turns read the summary and the messages after it. A console user's is audited.
   */
  compact(
    sessionId: string,
    actor?: Actor,
    trigger: 'manual' | 'auto' = 'manual'
  ): Promise<CompactResult> {
    const running = this.#compacting.get(sessionId);
    if (running) return running;
    const work = this.#compact(sessionId, actor, trigger).finally(() => {
      this.#compacting.delete(sessionId);
      this.#chars.delete(sessionId);
    });
    this.#compacting.set(sessionId, work);
    return work;
  }

  async #compact(
    sessionId: string,
    actor: Actor | undefined,
    trigger: 'manual' | 'auto'
  ): Promise<CompactResult> {
    const session = this.sessions.brief(sessionId);
    if (!session) throw notFound('Session');
    const { keepMessages } = this.settings(session.agentName);
    let summary = session.summary ?? '';
    let compacted = 0;
    const signal = AbortSignal.timeout(COMPACT_TIMEOUT_MS);
    for (;;) {
      const chunk = this.sessions.compactable(sessionId, keepMessages, CHUNK_MESSAGES);
      if (!chunk.length) break;
      const made = await this.summarize(session.agentName, summary || null, chunk, signal);
      const recorded = this.sessions.recordSummary({
        id: crypto.randomUUID(),
        sessionId,
        fromSeq: chunk[0]!.seq,
        toSeq: chunk.at(-1)!.seq,
        messageCount: chunk.length,
        summary: made.text,
        method: made.method,
        model: made.model,
        trigger,
        createdAt: Date.now()
      });
      if (!recorded) throw notFound('Session');
      summary = made.text;
      compacted += chunk.length;
      if (chunk.length < CHUNK_MESSAGES) break;
    }
    if (actor)
      this.audit.record(actor, 'session.compact', `${session.agentName}/${session.key}`, {
        messages: compacted
      });
    if (compacted)
      this.bus.emit('session.changed', {
        sessionId,
        agentName: session.agentName,
        change: 'compacted'
      });
    return { sessionId, compactedMessages: compacted, summary };
  }

  /**
   * After a completed turn: compacts the session (in the background) once its size reaches
   * the agent's budget. The size is the turn's prompt + completion tokens as the provider
   * reported them, or, when larger, the characters of the summary and uncompacted messages / 4.
   */
  #compactIfDue(turn: TurnRecord): void {
    const { budgetTokens } = this.settings(turn.agentName);
    if (!budgetTokens || this.#compacting.has(turn.sessionId)) return;
    let size = turn.usage.prompt + turn.usage.completion;
    try {
      if (size < budgetTokens) size = Math.max(size, Math.ceil(this.#charsOf(turn.sessionId) / 4));
    } catch {
      return; // storage refused the read: the next turn checks again
    }
    if (size >= budgetTokens)
      // A failed automatic compaction (model unreachable) is tried again after the next turn.
      void this.compact(turn.sessionId, undefined, 'auto').catch(() => undefined);
  }

  #charsOf(sessionId: string): number {
    let chars = this.#chars.get(sessionId);
    if (chars === undefined) {
      chars = this.sessions.uncompactedChars(sessionId);
      this.#chars.set(sessionId, chars);
    }
    return chars;
  }

  delete(sessionId: string, actor?: Actor): { sessionId: string; deleted: true } {
    const row = this.sessions.delete(sessionId);
    if (!row) throw notFound('Session');
    if (actor) this.audit.record(actor, 'session.delete', `${row.agentName}/${row.key}`);
    this.bus.emit('session.changed', { sessionId, agentName: row.agentName, change: 'deleted' });
    return { sessionId, deleted: true };
  }
}

function toRecord(row: ChatSessionRow & { messageCount: number }): SessionRecord {
  return {
    sessionId: row.id,
    agentName: row.agentName,
    key: row.key,
    messageCount: row.messageCount,
    summary: row.summary ?? null,
    compactedMessages: row.compactedMessages,
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
    compactedBy: row.compactedBy ?? null,
    createdAt: row.createdAt
  };
}

function toSummary(row: SummaryRow): SummaryRecord {
  return {
    summaryId: row.id,
    messageCount: row.messageCount,
    summary: row.summary,
    method: row.method,
    model: row.model ?? null,
    trigger: row.trigger,
    createdAt: row.createdAt
  };
}
