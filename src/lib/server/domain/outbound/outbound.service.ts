import type {
  OutboundAttemptView,
  OutboundDeliveryView,
  OutboundEvent,
  OutboundWebhookView
} from '$lib/contracts/outbound';
import type { BerthConfig } from '../../config/config.schema';
import type {
  OutboundDeliveryRow,
  OutboundRepository
} from '../../db/repositories/outbound.repository';
import type { OutboundSend } from './outbound-send';
import { invalid, notFound } from '../../errors';
import type { Actor, AuditService } from '../audit/audit.service';
import { decodeCursor, paginate } from '../cursor';
import { newSecret, signedHeaders } from './signature';

/** Deliveries sent at once; the rest wait for the next pass. */
const CONCURRENCY = 4;
/** The longest a pass sleeps, so a delivery queued by another process path is not missed. */
const MAX_IDLE_MS = 60_000;
/** Jitter applied to each wait: ±20 %. */
const JITTER = 0.2;
const ATTEMPTS_SHOWN = 100;

/** What a turn's end hands to the outbox: enough to build the message, nothing read later. */
export interface TurnOutcome {
  turnId: string;
  agentName: string;
  sessionId: string;
  state: 'completed' | 'failed';
  result: string | null;
  error: string | null;
  usage: { prompt: number; completion: number };
  finishedAt: number;
}

interface Endpoint {
  id: string;
  agentName: string;
  url: string;
  secret: string;
  events: OutboundEvent[];
  allowPrivate: boolean;
  source: 'config' | 'console';
  createdAt: number | null;
}

/**
 * Announce delivery to an agent's outbound webhooks: a turn's end queues one message per
 * endpoint in the outbox (in the turn's own commit), and a sender works the outbox: signed as
 * Standard Webhooks specifies, retried after `outbound.retryDelaysMs` (jittered) until a 2xx
 * or the last try, every try recorded. The outbox is SQLite, so a restart sends what waits.
 */
export class OutboundService {
  readonly #inFlight = new Set<string>();
  #timer: NodeJS.Timeout | null = null;
  #wakeAt = Infinity;
  #stopped = false;

  constructor(
    private readonly repo: OutboundRepository,
    private readonly config: () => BerthConfig,
    private readonly send: OutboundSend,
    private readonly audit: AuditService
  ) {}

  /** Endpoints of an agent: the config file's, then the console's. */
  endpoints(agentName: string): Endpoint[] {
    const declared =
      this.config()
        .agents.find((a) => a.name === agentName)
        ?.outbound.map((entry, i) => ({
          id: `config:${agentName}:${i}`,
          agentName,
          url: entry.url,
          secret: entry.secret,
          events: entry.events,
          allowPrivate: entry.allowPrivate,
          source: 'config' as const,
          createdAt: null
        })) ?? [];
    const added = this.repo.webhooks(agentName).map((row) => ({
      id: row.id,
      agentName,
      url: row.url,
      secret: row.secret,
      events: row.events as OutboundEvent[],
      allowPrivate: row.allowPrivate,
      source: 'console' as const,
      createdAt: row.createdAt
    }));
    return [...declared, ...added];
  }

  list(agentName: string): OutboundWebhookView[] {
    return this.endpoints(agentName).map(({ secret: _secret, ...view }) => view);
  }

  /** A console endpoint; its secret is generated here and returned this once. */
  add(
    input: { agent: string; url: string; events: OutboundEvent[]; allowPrivate: boolean },
    actor: Actor
  ): OutboundWebhookView & { secret: string } {
    const row = this.repo.addWebhook({
      id: `ow_${crypto.randomUUID()}`,
      agentName: input.agent,
      url: input.url,
      secret: newSecret(),
      events: input.events,
      allowPrivate: input.allowPrivate,
      createdBy: actor.email,
      createdAt: Date.now()
    });
    this.audit.record(actor, 'outbound.add', `${input.agent} ${input.url}`, {
      allowPrivate: input.allowPrivate
    });
    return {
      id: row.id,
      agentName: row.agentName,
      url: row.url,
      events: row.events as OutboundEvent[],
      allowPrivate: row.allowPrivate,
      source: 'console',
      createdAt: row.createdAt,
      secret: row.secret
    };
  }

  remove(id: string, actor: Actor): void {
    if (id.startsWith('config:'))
      throw invalid('This webhook is declared in the config file; remove it there');
    const row = this.repo.removeWebhook(id);
    if (!row) throw notFound('Outbound webhook');
    this.audit.record(actor, 'outbound.remove', `${row.agentName} ${row.url}`);
  }

  /**
   * A deleted agent's console endpoints go with it: a new agent of that name must not inherit
   * them (nor their secrets). Its deliveries stay in the log.
   */
  forgetAgent(agentName: string): void {
    try {
      this.repo.removeWebhooksOf(agentName);
    } catch {
      // Storage refused it: the endpoints stay listed under the name, removable by hand.
    }
  }

  /**
   * Queues a turn's result for each endpoint that wants its event. Called inside the commit
   * that ends the turn, so the turn never ends without its messages queued.
   */
  queue(outcome: TurnOutcome): number {
    const event: OutboundEvent = outcome.state === 'completed' ? 'turn.completed' : 'turn.failed';
    const targets = this.endpoints(outcome.agentName).filter((e) => e.events.includes(event));
    if (!targets.length) return 0;
    const now = Date.now();
    const payload = JSON.stringify({
      type: event,
      timestamp: new Date(outcome.finishedAt).toISOString(),
      data: {
        turnId: outcome.turnId,
        agentName: outcome.agentName,
        sessionId: outcome.sessionId,
        state: outcome.state,
        result: outcome.result,
        error: outcome.error,
        usage: outcome.usage
      }
    });
    this.repo.queue(
      targets.map((endpoint) => ({
        id: `msg_${crypto.randomUUID().replaceAll('-', '')}`,
        agentName: outcome.agentName,
        endpointId: endpoint.id,
        url: endpoint.url,
        event,
        turnId: outcome.turnId,
        payload,
        state: 'pending' as const,
        nextAt: now,
        createdAt: now
      }))
    );
    return targets.length;
  }

  /** Starts the sender (at start: what a stop left pending goes out now). */
  start(): void {
    this.#stopped = false;
    this.kick();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Something may be due: the next pass runs at once. */
  kick(): void {
    this.#schedule(0);
  }

  deliveries(
    filter: { agentName?: string; turnId?: string },
    limit: number,
    cursor?: string
  ): { deliveries: OutboundDeliveryView[]; nextCursor: string | null } {
    const rows = this.repo.page(filter, limit + 1, decodeCursor(cursor));
    const { items, nextCursor } = paginate(rows, limit, (r) => [r.createdAt, r.id], toView);
    return { deliveries: items, nextCursor };
  }

  attempts(deliveryId: string): OutboundAttemptView[] {
    if (!this.repo.delivery(deliveryId)) throw notFound('Delivery');
    return this.repo.attempts(deliveryId, ATTEMPTS_SHOWN).map((a) => ({
      at: a.at,
      status: a.status ?? null,
      error: a.error ?? null,
      durationMs: a.durationMs,
      trigger: a.trigger
    }));
  }

  /** Sends a delivery again now (same webhook-id, fresh timestamp and signature). */
  async resend(deliveryId: string, actor: Actor): Promise<OutboundDeliveryView> {
    const row = this.repo.delivery(deliveryId);
    if (!row) throw notFound('Delivery');
    if (this.#inFlight.has(row.id)) throw invalid('This delivery is being sent right now');
    this.audit.record(actor, 'outbound.resend', `${row.agentName} ${row.url}`, {
      delivery: row.id
    });
    return toView(await this.#attempt(row, 'resend'));
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    const at = Date.now() + delayMs;
    if (this.#timer && at >= this.#wakeAt) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#wakeAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#wakeAt = Infinity;
      this.#pass();
    }, delayMs).unref();
  }

  /** Sends what is due (up to CONCURRENCY at once), then sleeps until the next is due. */
  #pass(): void {
    if (this.#stopped) return;
    const free = CONCURRENCY - this.#inFlight.size;
    if (free <= 0) return; // each send's end kicks the next pass
    let due: OutboundDeliveryRow[];
    let next: number | null;
    try {
      due = this.repo.due(Date.now(), free, this.#inFlight);
      next = due.length === free ? null : this.repo.nextDue(this.#inFlight);
    } catch {
      // Storage refused the read (locked, closing): the next pass tries again.
      return this.#schedule(1000);
    }
    for (const row of due)
      void this.#attempt(row, 'auto')
        .catch(() => undefined)
        .finally(() => this.kick());
    if (due.length === free) return; // more may be due: the sends' ends kick the pass
    // Fewer than asked: sleep until the next one not in flight is due (a send's end kicks the
    // pass too). One that fell due between the two reads is taken at once, not in a minute.
    const wait = next === null ? MAX_IDLE_MS : Math.max(0, next - Date.now());
    this.#schedule(Math.min(MAX_IDLE_MS, wait));
  }

  async #attempt(
    row: OutboundDeliveryRow,
    trigger: 'auto' | 'resend'
  ): Promise<OutboundDeliveryRow> {
    this.#inFlight.add(row.id);
    const started = Date.now();
    const { retryDelaysMs, timeoutMs } = this.config().outbound;
    let status: number | null = null;
    let error: string | null = null;
    try {
      const endpoint = this.endpoints(row.agentName).find((e) => e.id === row.endpointId);
      if (!endpoint) throw new Error('the endpoint was removed');
      const headers = signedHeaders(endpoint.secret, row.id, row.payload);
      ({ status } = await this.send({
        url: endpoint.url,
        headers,
        body: row.payload,
        allowPrivate: endpoint.allowPrivate,
        timeoutMs
      }));
      if (status < 200 || status >= 300) error = `answered ${status}`;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const now = Date.now();
    const ok = error === null;
    // A resend is an extra try: it does not use up the schedule, and a failed one leaves the
    // delivery as it was (pending with its next try, or failed).
    const auto = trigger === 'auto';
    const tries = row.attempts + (auto ? 1 : 0);
    const wait = retryDelaysMs[tries - 1];
    const outcome: Pick<OutboundDeliveryRow, 'state' | 'nextAt' | 'lastError' | 'deliveredAt'> = ok
      ? { state: 'delivered', nextAt: null, lastError: null, deliveredAt: now }
      : !auto
        ? {
            state: row.state === 'delivered' ? 'delivered' : row.state,
            nextAt: row.nextAt,
            lastError: error,
            deliveredAt: row.deliveredAt
          }
        : wait === undefined
          ? { state: 'failed', nextAt: null, lastError: error, deliveredAt: null }
          : { state: 'pending', nextAt: now + jittered(wait), lastError: error, deliveredAt: null };
    try {
      return (
        this.repo.recordAttempt(
          row.id,
          { deliveryId: row.id, at: started, status, error, durationMs: now - started, trigger },
          outcome,
          auto
        ) ?? row
      );
    } finally {
      this.#inFlight.delete(row.id);
    }
  }
}

function jittered(ms: number): number {
  return Math.round(ms * (1 - JITTER + Math.random() * 2 * JITTER));
}

function toView(row: OutboundDeliveryRow): OutboundDeliveryView {
  return {
    deliveryId: row.id,
    agentName: row.agentName,
    endpointId: row.endpointId,
    url: row.url,
    event: row.event,
    turnId: row.turnId,
    state: row.state,
    attempts: row.attempts,
    nextAt: row.nextAt ?? null,
    lastError: row.lastError ?? null,
    createdAt: row.createdAt,
    deliveredAt: row.deliveredAt ?? null
  };
}
