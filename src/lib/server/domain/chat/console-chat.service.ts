import type { ChatHistoryPage } from '$lib/contracts/chat';
import type { SessionRepository } from '../../db/repositories/session.repository';
import { invalid, notFound } from '../../errors';
import type { AuditService } from '../audit/audit.service';
import type { ChatSessionService } from '../sessions/chat-session.service';
import type { TurnService } from '../turns/turn.service';
import { requireRole, type WebhookActor as RoleActor } from '../webhooks/webhook-actor';

/**
 * The console's Chat: a signed-in user talks to an agent. Viewers read; operators and admins
 * send and stop. A message runs as a turn like any other (source `console`), so it streams on
 * the bus and shows in Activity; what the user writes is trusted as an operator's command.
 */
export class ConsoleChatService {
  constructor(
    private readonly turns: TurnService,
    private readonly chatSessions: ChatSessionService,
    private readonly sessions: SessionRepository,
    private readonly audit: AuditService
  ) {}

  /** Queues the message on the session (a new one when none is named). */
  send(
    actor: RoleActor,
    input: { agent: string; sessionId?: string; message: string }
  ): { turnId: string; sessionId: string; messageId: string } {
    requireRole(actor, 'operator', 'chat with agents');
    let sessionKey: string;
    if (input.sessionId) {
      const session = this.sessions.byId(input.sessionId);
      if (!session) throw notFound('Session');
      if (session.agentName !== input.agent)
        throw invalid(`Session ${session.key} belongs to agent ${session.agentName}`);
      sessionKey = session.key;
    } else sessionKey = `console:${crypto.randomUUID().slice(0, 8)}`;
    return this.turns.enqueue({
      agentName: input.agent,
      sessionKey,
      input: input.message,
      source: 'console',
      trust: 'operator',
      channel: 'console',
      userId: actor.email ?? actor.id
    });
  }

  /** Cancels a queued or running turn; audited with who stopped it. */
  stop(actor: RoleActor, turnId: string) {
    requireRole(actor, 'operator', 'stop turns');
    const turn = this.turns.cancel(turnId, actor.email ?? 'a console user');
    this.audit.record(actor, 'turn.cancel', `${turn.agentName}/${turnId}`, {
      state: turn.state
    });
    return turn;
  }

  /** One page of a session's messages, newest page first; `before` is an `olderCursor`. */
  history(actor: RoleActor, sessionId: string, limit: number, before?: string): ChatHistoryPage {
    requireRole(actor, 'viewer', 'read sessions');
    // One more than asked: whether an older page exists is known without another round trip.
    const page = this.chatSessions.get(sessionId, limit + 1, before);
    const more = page.messages.length > limit;
    const messages = more ? page.messages.slice(1) : page.messages;
    return {
      session: page.session,
      messages,
      olderCursor: more && messages[0] ? messages[0].messageId : null
    };
  }

  turnsOf(actor: RoleActor, sessionId: string, limit: number, cursor?: string) {
    requireRole(actor, 'viewer', 'read turns');
    return this.turns.list({ sessionId }, limit, cursor);
  }
}
