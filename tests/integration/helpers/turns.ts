/** Agent turns over JSON-RPC, for the provider and tool suites: send a message, wait for its end. */
import type { Berth } from './berth';
import { callRpc } from './rpc';

export interface TurnView {
  turnId: string;
  state: string;
  result: string | null;
  error: string | null;
  usage: { prompt: number; completion: number };
}

/** `agent.sendMessage`: the queued turn and its session. */
export async function sendMessage(
  berth: Berth,
  token: string,
  agentName: string,
  message: string,
  extra: { channel?: string; userId?: string } = {}
): Promise<{ turnId: string; sessionId: string }> {
  const { result, error } = await callRpc<{ turnId: string; sessionId: string }>(
    berth,
    token,
    'agent.sendMessage',
    { agentName, channel: 'it', userId: 'u', message, ...extra }
  );
  if (!result) throw new Error(`agent.sendMessage failed: ${JSON.stringify(error)}`);
  return result;
}

/** The turn once it ended (completed, failed, cancelled), or as it is after `ms`. */
export async function settledTurn(
  berth: Berth,
  token: string,
  turnId: string,
  ms = 8000
): Promise<TurnView> {
  const deadline = Date.now() + ms;
  for (;;) {
    const turn = (await callRpc<TurnView>(berth, token, 'turn.get', { turnId })).result!;
    if (['completed', 'failed', 'cancelled'].includes(turn.state) || Date.now() > deadline)
      return turn;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A turn's input in SQL, for reading the file: its user message's text (the turn row keeps
 * it there only; rows queued before that still hold their own).
 */
export const TURN_INPUT = `coalesce(nullif(turns.input, ''), (select content from messages where messages.id = turns.message_id))`;
