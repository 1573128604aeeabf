import {
  eventItem,
  parseToolCall,
  turnItem,
  type ActivityFilter,
  type ActivityItem,
  type ActivityPage,
  type EventDetail,
  type ToolCall,
  type TurnDetail
} from '$lib/contracts/chat';
import type { EventRecord } from '$lib/contracts/assistant';
import type { EventRepository } from '../../db/repositories/event.repository';
import type { SessionRepository } from '../../db/repositories/session.repository';
import type { TurnRepository } from '../../db/repositories/turn.repository';
import { EVENT_STATES, TURN_STATES, type EventState, type TurnState } from '../../db/schema';
import { notFound } from '../../errors';
import { decodeCursor, encodeCursor } from '../cursor';
import { toRecord as eventRecord } from '../events/event.service';
import { toMessage } from '../sessions/chat-session.service';
import { toRecord as turnRecord, turnInput } from '../turns/turn.record';
import type { DeliveryLogService } from '../webhooks/delivery-log.service';
import { requireRole, type WebhookActor as RoleActor } from '../webhooks/webhook-actor';

/**
 * The Activity timeline: turns and system events in one list, newest first, filtered in the
 * database; and the details of one, with the webhook delivery that caused it when the
 * delivery log still holds it. Every role may read it.
 */
export class ActivityService {
  constructor(
    private readonly turns: TurnRepository,
    private readonly events: EventRepository,
    private readonly sessions: SessionRepository,
    private readonly deliveries: DeliveryLogService
  ) {}

  /**
   * One page of both kinds merged by time. Each kind is read `limit + 1` past the cursor, so
   * the union's first `limit` are exact and one more says another page exists.
   */
  list(actor: RoleActor, filter: ActivityFilter, limit: number, cursor?: string): ActivityPage {
    requireRole(actor, 'viewer', 'read activity');
    const after = decodeCursor(cursor);
    const items: ActivityItem[] = [];
    const turnState = pick<TurnState>(TURN_STATES, filter.state);
    const eventState = pick<EventState>(EVENT_STATES, filter.state);
    if (filter.kind !== 'event' && turnState !== null)
      for (const row of this.turns.page(
        {
          agentName: filter.agent,
          sessionId: filter.sessionId,
          state: turnState,
          source: filter.source,
          since: filter.since,
          until: filter.until
        },
        limit + 1,
        after
      ))
        items.push(turnItem(turnRecord(row)));
    // Events belong to no session: a session filter leaves only turns.
    if (filter.kind !== 'turn' && eventState !== null && !filter.sessionId)
      for (const row of this.events.page(
        {
          agentName: filter.agent,
          state: eventState,
          source: filter.source,
          since: filter.since,
          until: filter.until
        },
        limit + 1,
        after
      ))
        items.push(eventItem(eventRecord(row), row.source));
    items.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    const page = items.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page,
      nextCursor: items.length > limit && last ? encodeCursor(last.at, last.id) : null
    };
  }

  /** A live event as a timeline row; its source is read back (the bus's record has none). */
  eventItem(event: EventRecord): ActivityItem {
    return eventItem(event, this.events.byId(event.eventId)?.source ?? 'unknown');
  }

  turn(actor: RoleActor, turnId: string): TurnDetail {
    requireRole(actor, 'viewer', 'read activity');
    const row = this.turns.byId(turnId);
    if (!row) throw notFound('Turn');
    const messages = this.sessions.turnMessages(row.sessionId, row.id).map(toMessage);
    return {
      turn: turnRecord(row),
      input: turnInput(row, this.sessions),
      trust: row.trust,
      model: row.model ?? null,
      channel: row.channel ?? null,
      userId: row.userId ?? null,
      messages,
      toolCalls: messages
        .filter((m) => m.role === 'tool')
        .map((m) => parseToolCall(m.content))
        .filter((call): call is ToolCall => call !== null),
      delivery: row.source === 'webhook' ? this.deliveries.causing(actor, { turnId }) : null
    };
  }

  event(actor: RoleActor, eventId: string): EventDetail {
    requireRole(actor, 'viewer', 'read activity');
    const row = this.events.byId(eventId);
    if (!row) throw notFound('Event');
    const turn = row.turnId ? this.turns.byId(row.turnId) : undefined;
    return {
      event: eventRecord(row),
      source: row.source,
      turn: turn ? turnRecord(turn) : null,
      delivery: row.source === 'webhook' ? this.deliveries.causing(actor, { eventId }) : null
    };
  }
}

/** The filter's state when this kind has it; null: this kind has no such state (none match). */
function pick<S extends string>(
  states: readonly S[],
  state: string | undefined
): S | undefined | null {
  if (state === undefined) return undefined;
  return (states as readonly string[]).includes(state) ? (state as S) : null;
}
