import { EventEmitter } from 'node:events';
import type { AuditEntry } from '$lib/contracts/audit';
import type { User } from '$lib/contracts/users';

/** What the domain announces; realtime and other adapters listen. */
export interface DomainEvents {
  /** Login sessions ended: every one of a user's, or the listed ones. */
  'sessions.ended': { userId: string; sessionIds: string[]; reason: string };
  'audit.appended': AuditEntry;
  'user.changed': User;
}

export class DomainBus {
  readonly #emitter = new EventEmitter({ captureRejections: false });

  constructor() {
    this.#emitter.setMaxListeners(100);
  }

  emit<K extends keyof DomainEvents>(name: K, payload: DomainEvents[K]): void {
    this.#emitter.emit(name, payload);
  }

  on<K extends keyof DomainEvents>(
    name: K,
    listener: (payload: DomainEvents[K]) => void
  ): () => void {
    this.#emitter.on(name, listener);
    return () => this.#emitter.off(name, listener);
  }
}
