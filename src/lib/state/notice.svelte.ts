import { errorMessage } from '$lib/client/trpc';
import { consoleToasts } from './toasts.svelte';

export interface NoticeMessage {
  /** Which part of the page the message belongs to, so it is shown next to it. */
  source: string;
  kind: 'error' | 'success';
  text: string;
}

/**
 * A page's messages: an error stays next to the part it belongs to (one at a time, so there is
 * never more than one alert to read) until that part succeeds; a success is confirmed by a
 * toast, over the page, so the content never moves.
 */
export class NoticeState {
  current = $state<NoticeMessage | null>(null);

  error(source: string, err: unknown): void {
    this.current = { source, kind: 'error', text: errorMessage(err) };
  }

  success(source: string, text: string): void {
    if (this.current?.source === source) this.current = null;
    consoleToasts.success(text);
  }

  clear(): void {
    this.current = null;
  }

  for(source: string): NoticeMessage | null {
    return this.current?.source === source ? this.current : null;
  }
}
