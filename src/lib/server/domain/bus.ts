import { EventEmitter } from 'node:events';
import type { AgentChanged } from '$lib/contracts/agents';
import type { AuditEntry } from '$lib/contracts/audit';
import type { User } from '$lib/contracts/users';
import type { EventRecord, TurnRecord } from '$lib/contracts/assistant';
import type { AfterCommit } from '../db/after-commit';

/** What the domain announces; realtime and other adapters listen. */
export interface DomainEvents {
  /** Login sessions ended: every one of a user's, or the listed ones. */
  'sessions.ended': { userId: string; sessionIds: string[]; reason: string };
  'audit.appended': AuditEntry;
  'user.changed': User;
  /** A turn changed state (queued, running, completed, failed, cancelled). */
  'turn.changed': TurnRecord;
  /** A piece of a turn's reply as the provider produces it. */
  'message.delta': { turnId: string; sessionId: string; agentName: string; text: string };
  'message.created': {
    sessionId: string;
    agentName: string;
    messageId: string;
    /** The turn the message belongs to (its input, tool calls and reply). */
    turnId: string | null;
    role: string;
    content: string;
    /** Who sent a user message (null for replies, tool calls and senders without a user). */
    userId: string | null;
  };
  'event.changed': EventRecord;
  'session.changed': {
    sessionId: string;
    agentName: string;
    change: 'created' | 'compacted' | 'deleted';
  };
  /** An agent's state moved, or it was created, changed (config reload too) or deleted. */
  'agent.changed': AgentChanged;
  /** A credential stopped working: connections that used it must close. */
  'credential.revoked': { kind: 'rpc' | 'rest'; id: string; name: string };
}

export class DomainBus {
  readonly #emitter = new EventEmitter({ captureRejections: false });

  /** @param commits the storage's after-commit queue; without it work runs at once */
  constructor(private readonly commits?: Pick<AfterCommit, 'run'>) {
    this.#emitter.setMaxListeners(100);
  }

  emit<K extends keyof DomainEvents>(name: K, payload: DomainEvents[K]): void {
    this.#emitter.emit(name, payload);
  }

  /**
   * Runs `work` (announcing rows, starting what runs them) once the open transaction commits,
   * at once when none is open; never when it rolls back (db/after-commit).
   */
  afterCommit(work: () => void): void {
    if (this.commits) this.commits.run(work);
    else work();
  }

  /** True when someone listens: work done only to announce (reading rows back) can be skipped. */
  listens(name: keyof DomainEvents): boolean {
    return this.#emitter.listenerCount(name) > 0;
  }

  on<K extends keyof DomainEvents>(
    name: K,
    listener: (payload: DomainEvents[K]) => void
  ): () => void {
    this.#emitter.on(name, listener);
    return () => this.#emitter.off(name, listener);
  }
}
