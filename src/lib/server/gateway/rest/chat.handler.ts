import type { TurnRecord } from '$lib/contracts/assistant';
import type { EnqueueTurn } from '../../domain/turns/turn.service';
import { isFinal } from '../../domain/turns/turn.service';
import { sendJson } from '../../http/fast-router';
import { readJsonBody } from '../http/body';
import { HttpProblem } from './problem';
import type { RestContext } from './rest.handler';
import { chatSendBody, parseBody } from './rest.schemas';
import { SseStream } from './sse';

/** POST /chat/send: one turn on the caller's session, answered when done or streamed. */
export async function chatSend(ctx: RestContext): Promise<void> {
  const { deps, caller } = ctx;
  const body = parseBody(chatSendBody, await readJsonBody(ctx.req, deps.bodyLimit));
  const agentName = deps.agents.resolveTarget(body.agent).name;
  const skillIds = body.skill_ids ?? [];
  const known = new Set(deps.skills.list().map((s) => s.id));
  const unknown = skillIds.filter((id) => !known.has(id));
  if (unknown.length) throw new HttpProblem(400, `skill_ids: unknown skill ${unknown.join(', ')}`);
  const turn: EnqueueTurn = {
    agentName,
    sessionKey: body.session ?? `rest:${caller.name}`,
    input: body.message,
    source: 'rest',
    // Only operator and admin keys reach here (write access).
    trust: 'operator',
    userId: caller.name,
    credential: `apikey:${caller.name}`,
    context: { skillIds, apiKey: caller.name }
  };
  if (body.stream) streamTurn(ctx, turn);
  else await answerTurn(ctx, turn);
}

/**
 * Follows one turn on the bus. Subscribed BEFORE the turn is queued so nothing is missed; the
 * turn id is known once enqueue returns, which is before the runner can emit anything.
 */
function watchTurn(
  ctx: RestContext,
  input: EnqueueTurn,
  on: { delta?(text: string): void; final(turn: TurnRecord): void }
): { turnId: string; sessionId: string; messageId: string; stop(): void } {
  const { bus, turns } = ctx.deps;
  let turnId: string | null = null;
  const offDelta = on.delta
    ? bus.on('message.delta', (d) => {
        if (d.turnId === turnId) on.delta?.(d.text);
      })
    : () => undefined;
  const offTurn = bus.on('turn.changed', (t) => {
    if (t.turnId !== turnId || !isFinal(t.state)) return;
    stop();
    on.final(t);
  });
  const stop = () => {
    offDelta();
    offTurn();
  };
  ctx.res.once('close', stop);
  try {
    const ids = turns.enqueue(input);
    turnId = ids.turnId;
    return { ...ids, stop };
  } catch (err) {
    stop();
    throw err;
  }
}

async function answerTurn(ctx: RestContext, input: EnqueueTurn): Promise<void> {
  let settle: (turn: TurnRecord | null) => void = () => undefined;
  const done = new Promise<TurnRecord | null>((resolve) => (settle = resolve));
  const ids = watchTurn(ctx, input, { final: (t) => settle(t) });
  // gateway.rest.waitMs: how long the request is held for the reply before answering 202.
  const timer = setTimeout(() => settle(null), ctx.deps.config.current.gateway.rest.waitMs);
  ctx.res.once('close', () => settle(null));
  const turn = await done;
  clearTimeout(timer);
  ids.stop();
  if (ctx.res.destroyed) return;
  const base = { messageId: ids.messageId, sessionId: ids.sessionId, turnId: ids.turnId };
  if (!turn) {
    sendJson(
      ctx.res,
      202,
      { ...base, status: 'running', reply: null },
      { Location: `/api/v1/turns/${ids.turnId}` }
    );
    return;
  }
  sendJson(ctx.res, 200, {
    ...base,
    status: turn.state,
    reply: turn.state === 'completed' ? (turn.result ?? '') : null,
    ...(turn.state === 'completed' ? {} : { error: turn.error ?? turn.state }),
    usage: turn.usage
  });
}

function streamTurn(ctx: RestContext, input: EnqueueTurn): void {
  let sse: SseStream | null = null;
  const ids = watchTurn(ctx, input, {
    delta: (text) => sse?.send('message.delta', { text }),
    final: (turn) => {
      if (turn.state === 'completed')
        sse?.send('turn.completed', {
          turnId: turn.turnId,
          reply: turn.result ?? '',
          usage: turn.usage
        });
      else sse?.send('turn.failed', { turnId: turn.turnId, error: turn.error ?? turn.state });
      sse?.close();
    }
  });
  sse = new SseStream(ctx.res);
  sse.send('turn.started', {
    turnId: ids.turnId,
    sessionId: ids.sessionId,
    messageId: ids.messageId
  });
}
