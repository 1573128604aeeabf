import { consoleSocket, type ConsoleSocket } from '$lib/client/socket';
import type { ChannelName } from '$lib/contracts/realtime';

export type LiveStatus = 'connecting' | 'live' | 'offline' | 'refused';

/** Registers a page's event listeners and returns the function that removes them. */
export type Subscribe = (socket: ConsoleSocket) => () => void;

/**
 * Membership of one realtime channel: joins on every (re)connect, since the server forgets a
 * socket's channels when it drops, and leaves when stopped. Browser only: call start() from onMount.
 */
export class LiveRoom {
  status = $state<LiveStatus>('connecting');
  refusal = $state<string | null>(null);

  readonly #channel: ChannelName;
  readonly #subscribe: Subscribe;
  readonly #onjoined: (() => void) | undefined;

  /** `onjoined` runs after every accepted (re)join: a page reads what it missed while away. */
  constructor(channel: ChannelName, subscribe: Subscribe, onjoined?: () => void) {
    this.#channel = channel;
    this.#subscribe = subscribe;
    this.#onjoined = onjoined;
  }

  /** Returns the function that stops listening, fit to return from onMount. */
  start(): () => void {
    const socket = consoleSocket();
    const join = () => {
      this.status = 'connecting';
      socket.emit('room.join', this.#channel, (result) => {
        this.status = result.ok ? 'live' : 'refused';
        this.refusal = result.ok ? null : result.error;
        if (result.ok) this.#onjoined?.();
      });
    };
    const offline = () => {
      this.status = 'offline';
    };
    const unsubscribe = this.#subscribe(socket);
    socket.on('connect', join);
    socket.on('disconnect', offline);
    if (socket.connected) join();
    return () => {
      unsubscribe();
      socket.off('connect', join);
      socket.off('disconnect', offline);
      if (socket.connected) socket.emit('room.leave', this.#channel, () => undefined);
    };
  }
}
