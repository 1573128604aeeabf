import { errorMessage } from '$lib/client/trpc';

export interface Toast {
  id: number;
  kind: 'success' | 'error';
  text: string;
}

/** Short-lived confirmations of what just happened; errors stay until dismissed. */
export class ToastState {
  items = $state<Toast[]>([]);
  #next = 1;

  success(text: string): void {
    const id = this.#push('success', text);
    setTimeout(() => this.dismiss(id), 6000);
  }

  error(err: unknown, prefix?: string): void {
    const text = errorMessage(err);
    this.#push('error', prefix ? `${prefix}: ${text}` : text);
  }

  dismiss(id: number): void {
    this.items = this.items.filter((t) => t.id !== id);
  }

  #push(kind: Toast['kind'], text: string): number {
    const id = this.#next++;
    // At most three on screen: the oldest goes first.
    this.items = [...this.items.slice(-2), { id, kind, text }];
    return id;
  }
}

/**
 * The console's one toast stack, rendered once by the console layout: every page confirms what
 * it did here (NoticeState sends its successes here too), so confirmations never push the
 * page's content down. Only ever filled by event handlers in the browser, never during SSR.
 */
export const consoleToasts = new ToastState();
