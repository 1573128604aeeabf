import { trpc } from '$lib/client/trpc';
import type { ConsoleSocket } from '$lib/client/socket';
import type { MessageRecord, SessionRecord, TurnRecord } from '$lib/contracts/assistant';
import type { ChannelName, ServerToClientEvents } from '$lib/contracts/realtime';
import { LiveRoom } from './live-room.svelte';

const PAGE = 30;
const isFinal = (state: string) =>
  state === 'completed' || state === 'failed' || state === 'cancelled';

type Payload<E extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[E]>[0];

/**
 * One open chat session: its messages (newest page first, older pages on demand), the turns
 * behind them, and the replies streaming in on `session:<id>`. Messages that arrive live are
 * appended once (by id); a reply's streamed text gives way to the stored reply when it lands.
 */
export class ChatSession {
  session = $state<SessionRecord | null>(null);
  messages = $state<MessageRecord[]>([]);
  olderCursor = $state<string | null>(null);
  loaded = $state(false);
  /** Text streamed so far per running turn. */
  streaming = $state<Record<string, string>>({});
  turns = $state<Record<string, TurnRecord>>({});
  readonly room: LiveRoom;

  constructor(readonly sessionId: string) {
    const channel = `session:${sessionId}` as ChannelName;
    this.room = new LiveRoom(channel, (socket) => this.#listen(socket, channel));
  }

  async load(): Promise<void> {
    const [page, turns] = await Promise.all([
      trpc.chat.history.query({ sessionId: this.sessionId, limit: PAGE }),
      trpc.chat.turns.query({ sessionId: this.sessionId, limit: 50 })
    ]);
    this.session = page.session;
    this.#merge(page.messages);
    this.olderCursor = page.olderCursor;
    for (const turn of turns.turns) this.turns[turn.turnId] ??= turn;
    this.loaded = true;
  }

  /** The newest page again, merged in (what streamed past before the channel was joined). */
  async refresh(): Promise<void> {
    const page = await trpc.chat.history.query({ sessionId: this.sessionId, limit: PAGE });
    this.session = page.session;
    this.#merge(page.messages);
  }

  /** The page before the oldest shown; false when there is none. */
  async older(): Promise<boolean> {
    if (!this.olderCursor) return false;
    const page = await trpc.chat.history.query({
      sessionId: this.sessionId,
      before: this.olderCursor,
      limit: PAGE
    });
    const known = this.#ids();
    this.messages.unshift(...page.messages.filter((m) => !known[m.messageId]));
    this.olderCursor = page.olderCursor;
    return true;
  }

  /** The turn running or queued now, if any (the newest). */
  get active(): TurnRecord | null {
    const open = Object.values(this.turns).filter((t) => !isFinal(t.state));
    return open.sort((a, b) => b.queuedAt - a.queuedAt)[0] ?? null;
  }

  noteTurn(turn: TurnRecord): void {
    // A stop's answer may come after the socket said the turn ended: the end stands.
    const known = this.turns[turn.turnId];
    if (known && isFinal(known.state) && !isFinal(turn.state)) return;
    this.turns[turn.turnId] = turn;
    if (isFinal(turn.state)) delete this.streaming[turn.turnId];
  }

  #ids(): Record<string, true> {
    return Object.fromEntries(this.messages.map((m) => [m.messageId, true] as const));
  }

  #merge(incoming: MessageRecord[]): void {
    const known = this.#ids();
    const fresh = incoming.filter((m) => !known[m.messageId]);
    if (fresh.length) this.messages.push(...fresh);
  }

  #listen(socket: ConsoleSocket, channel: string): () => void {
    const onMessage = ({ channel: c, message }: Payload<'chat.message'>) => {
      if (c !== channel) return;
      this.#merge([
        {
          messageId: message.messageId,
          role: message.role as MessageRecord['role'],
          content: message.content,
          turnId: message.turnId,
          channel: null,
          userId: message.userId,
          compactedBy: null,
          createdAt: Date.now()
        }
      ]);
      // The stored reply replaces the streamed text.
      if (message.role === 'assistant' && message.turnId) delete this.streaming[message.turnId];
    };
    const onDelta = ({ channel: c, turnId, text }: Payload<'chat.delta'>) => {
      if (c !== channel) return;
      if (this.turns[turnId] && isFinal(this.turns[turnId].state)) return;
      this.streaming[turnId] = (this.streaming[turnId] ?? '') + text;
    };
    const onTurn = ({ channel: c, turn }: Payload<'chat.turn'>) => {
      if (c !== channel) return;
      this.noteTurn(turn);
      // A turn that ended before this page joined: its reply is read back instead.
      const replied = this.messages.some((m) => m.turnId === turn.turnId && m.role === 'assistant');
      if (turn.state === 'completed' && !replied) void this.refresh().catch(() => undefined);
    };
    socket.on('chat.message', onMessage);
    socket.on('chat.delta', onDelta);
    socket.on('chat.turn', onTurn);
    return () => {
      socket.off('chat.message', onMessage);
      socket.off('chat.delta', onDelta);
      socket.off('chat.turn', onTurn);
    };
  }
}

/** An agent's sessions for the picker: newest activity first, searched by key. */
export class SessionPicker {
  sessions = $state<SessionRecord[]>([]);
  loaded = $state(false);
  #asked = 0;

  async load(agent: string, search: string): Promise<void> {
    const asked = ++this.#asked;
    const page = await trpc.sessions.list.query({
      agent,
      search: search.trim() || undefined,
      limit: 50
    });
    if (asked !== this.#asked) return;
    this.sessions = page.sessions;
    this.loaded = true;
  }
}
