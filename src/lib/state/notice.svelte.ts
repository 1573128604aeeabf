import { errorMessage } from '$lib/client/trpc';

export interface NoticeMessage {
  /** Which part of the page the message belongs to, so it is shown next to it. */
  source: string;
  kind: 'error' | 'success';
  text: string;
}

/** One message at a time per page, so there is never more than one alert to read. */
export class NoticeState {
  current = $state<NoticeMessage | null>(null);

  error(source: string, err: unknown): void {
    this.current = { source, kind: 'error', text: errorMessage(err) };
  }

  success(source: string, text: string): void {
    this.current = { source, kind: 'success', text };
  }

  clear(): void {
    this.current = null;
  }

  for(source: string): NoticeMessage | null {
    return this.current?.source === source ? this.current : null;
  }
}
