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
