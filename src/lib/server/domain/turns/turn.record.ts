import type { TurnRecord } from '$lib/contracts/assistant';
import type { SessionRepository } from '../../db/repositories/session.repository';
import type { TurnRow } from '../../db/repositories/turn.repository';

export const isFinal = (state: string): boolean =>
  state === 'completed' || state === 'failed' || state === 'cancelled';

/** A turn as every interface shows it (REST, RPC, the bus). */
export function toRecord(row: TurnRow): TurnRecord {
  return {
    turnId: row.id,
    sessionId: row.sessionId,
    agentName: row.agentName,
    state: row.state,
    source: row.source,
    queuedAt: row.queuedAt,
    startedAt: row.startedAt ?? null,
    finishedAt: row.finishedAt ?? null,
    result: row.result ?? null,
    error: row.error ?? null,
    usage: { prompt: row.promptTokens, completion: row.completionTokens }
  };
}

/**
 * What a turn was asked: its user message's text. Rows queued before the input was kept only
 * there still carry it themselves (turns.input).
 */
export function turnInput(
  row: Pick<TurnRow, 'input' | 'messageId'>,
  sessions: Pick<SessionRepository, 'messageContent'>
): string {
  if (row.input || !row.messageId) return row.input;
  return sessions.messageContent(row.messageId) ?? '';
}
