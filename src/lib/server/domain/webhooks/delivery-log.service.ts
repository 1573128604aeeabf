import {
  listDeliveriesInput,
  type DeliveryDetail,
  type DeliveryKind,
  type DeliverySummary,
  type ListDeliveriesInput,
  testDeliveryInput,
  type TestDeliveryInput
} from '$lib/contracts/webhooks';
import { isSecretHeader } from '$lib/webhooks/headers';
import type { DeliveryRow, WebhookRepository } from '../../db/repositories/webhook.repository';
import { invalid, notFound } from '../../errors';
import { parseInput } from '../agents/agent.definition';
import type { AuditService } from '../audit/audit.service';
import { unlessUnavailable } from '../storage-retry';
import { requireRole, type WebhookActor } from './webhook-actor';
import type { ActiveMapping, WebhookMappingService } from './webhook-mapping.service';

/** How long a delivery (its payload with it) is kept, and how many at most. */
export const DELIVERY_RETENTION_MS = 7 * 24 * 3600_000;
export const DELIVERY_MAX_ROWS = 10_000;
/** A payload past this many bytes of JSON is cut there and marked truncated. */
export const PAYLOAD_CAP_BYTES = 64 * 1024;
/** Deliveries wait this long in memory and are written together, one transaction per batch. */
const FLUSH_MS = 100;
/** Written at once when this many wait; past MAX_PENDING (storage refusing) the oldest go. */
const FLUSH_AT = 1_000;
const MAX_PENDING = 20_000;
const PRUNE_EVERY_MS = 60_000;

/** One request to a webhook route, as the route reports it. */
export interface DeliveryReport {
  receivedAt: number;
  kind: DeliveryKind;
  mapping: string;
  status: number;
  matched: boolean | null;
  eventId?: string | null;
  turnId?: string | null;
  durationMs: number;
  /** The parsed JSON body; undefined when none was read. */
  body?: unknown;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  error?: string | null;
  rerunOf?: number | null;
}

type Headers = Record<string, string>;

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();

/** The body as JSON text, cut at the cap (on a character boundary) and marked. */
function payloadOf(body: unknown): { payload: string | null; payloadTruncated: boolean } {
  if (body === undefined) return { payload: null, payloadTruncated: false };
  const text = JSON.stringify(body);
  // A UTF-16 unit is at most 3 UTF-8 bytes: short texts skip the encoding.
  if (text.length * 3 <= PAYLOAD_CAP_BYTES || ENCODER.encode(text).length <= PAYLOAD_CAP_BYTES)
    return { payload: text, payloadTruncated: false };
  const cut = DECODER.decode(ENCODER.encode(text).subarray(0, PAYLOAD_CAP_BYTES)).replace(
    /\uFFFD$/,
    ''
  );
  return { payload: cut, payloadTruncated: true };
}

/** Headers minus credentials and anything named like a secret; lists joined. */
export function keptHeaders(headers: DeliveryReport['headers']): Headers {
  const kept: Headers = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !secret(name))
      kept[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}

/** Senders repeat the same few header names: each is judged once (a bounded cache). */
const judged = new Map<string, boolean>();
function secret(name: string): boolean {
  let verdict = judged.get(name);
  if (verdict === undefined) {
    verdict = isSecretHeader(name);
    if (judged.size < 1_000) judged.set(name, verdict);
  }
  return verdict;
}

/** The header a test delivery from the console is marked with in the log (never matched on). */
export const TEST_DELIVERY_HEADER = 'x-berth-test-delivery';

const summary = (row: DeliveryRow, sessionId: string | null): DeliverySummary => ({
  id: row.id,
  receivedAt: row.receivedAt,
  kind: row.kind,
  mapping: row.mapping,
  status: row.status,
  matched: row.matched === null ? null : row.matched === 1,
  eventId: row.eventId,
  turnId: row.turnId,
  durationMs: row.durationMs,
  rerunOf: row.rerunOf,
  sessionId
});

/**
 * Every request to a webhook route: when, which mapping, the answer's status, matched or not,
 * the event or turn it caused, how long it took, its payload (capped) and its headers (never
 * a credential). Reports wait in memory and are written in one transaction per 100 ms, so the
 * log costs the hot path an array push; reads write what waits first. The table is a ring of
 * 10,000 slots (delivery `id` in slot `id % 10,000`, replacing the one 10,000 before), so it
 * stays bounded with no deletes; rows older than 7 days are cleared once a minute.
 */
export class DeliveryLogService {
  #pending: DeliveryRow[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;
  #lastPrune = 0;
  #nextId: number;

  constructor(
    private readonly repo: WebhookRepository,
    private readonly mappings: WebhookMappingService,
    private readonly audit: AuditService,
    /** The session a turn ran in, for the log's links; null once the turn is gone. */
    private readonly sessionOf: (turnId: string) => string | null = () => null
  ) {
    this.#nextId = repo.lastDeliveryId() + 1;
  }

  /** Queues a delivery for the next write; returns its id. */
  record(report: DeliveryReport): number {
    const row = this.#row(report);
    this.#pending.push(row);
    if (this.#pending.length >= FLUSH_AT) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), FLUSH_MS).unref();
    return row.id;
  }

  /** Writes what waits; storage refusing keeps it for the next try (bounded). */
  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#pending.length) {
      const batch = this.#pending;
      this.#pending = [];
      if (!unlessUnavailable(() => this.repo.putDeliveries(batch))) {
        this.#pending = [...batch, ...this.#pending].slice(-MAX_PENDING);
        this.#timer = setTimeout(() => this.flush(), 1_000).unref();
        return;
      }
    }
    if (Date.now() - this.#lastPrune >= PRUNE_EVERY_MS) this.prune();
  }

  /** Clears rows past the retention. */
  prune(now = Date.now()): void {
    if (unlessUnavailable(() => this.repo.pruneOlderThan(now - DELIVERY_RETENTION_MS)))
      this.#lastPrune = now;
  }

  /** Writes what waits (at shutdown). */
  stop(): void {
    this.flush();
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  list(actor: WebhookActor, input: ListDeliveriesInput): DeliverySummary[] {
    requireRole(actor, 'viewer', 'read the webhook delivery log');
    const filter = parseInput(listDeliveriesInput, input);
    this.flush();
    return this.repo.deliveries(filter).map((row) => summary(row, this.#session(row)));
  }

  get(actor: WebhookActor, id: number): DeliveryDetail {
    requireRole(actor, 'viewer', 'read the webhook delivery log');
    this.flush();
    return this.#detail(this.#require(id));
  }

  /** The delivery that queued a turn or an event, while the ring still holds it. */
  causing(actor: WebhookActor, cause: { turnId: string } | { eventId: string }) {
    requireRole(actor, 'viewer', 'read the webhook delivery log');
    this.flush();
    const row = this.repo.causing(cause);
    return row ? summary(row, this.#session(row)) : null;
  }

  /**
   * Replays a stored payload (and its kept headers) through the mapping as it is now, and
   * records the result as a new delivery marked as a re-run of the first.
   */
  rerun(actor: WebhookActor, id: number): DeliveryDetail {
    requireRole(actor, 'operator', 're-run webhook deliveries');
    this.flush();
    const row = this.#require(id);
    if (row.kind !== 'mapping')
      throw invalid(`Only deliveries to a mapping can be re-run; this one went to /${row.kind}`);
    if (row.payload === null) throw invalid('This delivery has no stored payload to re-run');
    if (row.payloadTruncated)
      throw invalid('This delivery was stored truncated (over 64 KiB); it cannot be re-run');
    const active = this.mappings.find(row.mapping);
    if (!active) throw notFound(`Webhook mapping ${row.mapping}`);
    const newId = this.#run(active, JSON.parse(row.payload), row.headers, { rerunOf: row.id });
    this.audit.record(actor, 'webhook.delivery.rerun', row.mapping, { delivery: id, rerun: newId });
    return this.#detail(this.#require(newId));
  }

  /**
   * "Send test delivery": a sample runs through the mapping exactly as the route runs a real
   * one once it is authenticated (conditions, template, the turn), and is logged like one,
   * marked with the `x-berth-test-delivery` header naming who sent it.
   */
  test(actor: WebhookActor, input: TestDeliveryInput): DeliveryDetail {
    requireRole(actor, 'operator', 'send test deliveries');
    const { name, headers, body } = parseInput(testDeliveryInput, input);
    const active = this.mappings.find(name);
    if (!active) throw notFound(`Webhook mapping ${name}`);
    const newId = this.#run(active, body, headers, {
      mark: { [TEST_DELIVERY_HEADER]: actor.email ?? 'console' }
    });
    this.audit.record(actor, 'webhook.delivery.test', name, { delivery: newId });
    return this.#detail(this.#require(newId));
  }

  /** Runs a payload through a mapping and writes the delivery at once; its id. */
  #run(
    active: ActiveMapping,
    body: unknown,
    headers: Headers,
    extra: { rerunOf?: number; mark?: Headers }
  ): number {
    const started = performance.now();
    const outcome = this.mappings.deliver(active, body, headers);
    const newId = this.record({
      receivedAt: Date.now(),
      kind: 'mapping',
      mapping: active.name,
      status: outcome.kind === 'agent-missing' ? 500 : 200,
      matched: outcome.kind !== 'ignored',
      turnId: outcome.kind === 'queued' ? outcome.turnId : null,
      durationMs: Math.round(performance.now() - started),
      body,
      headers: { ...headers, ...extra.mark },
      error:
        outcome.kind === 'agent-missing'
          ? `Mapping ${active.name} names agent ${outcome.agentName}, which does not exist`
          : null,
      rerunOf: extra.rerunOf ?? null
    });
    this.flush();
    return newId;
  }

  #session(row: DeliveryRow): string | null {
    return row.turnId === null ? null : this.sessionOf(row.turnId);
  }

  #require(id: number): DeliveryRow {
    const row = this.repo.delivery(id, id % DELIVERY_MAX_ROWS);
    if (!row) throw notFound(`Delivery ${id}`);
    return row;
  }

  #row(report: DeliveryReport): DeliveryRow {
    const id = this.#nextId++;
    return {
      slot: id % DELIVERY_MAX_ROWS,
      id,
      receivedAt: report.receivedAt,
      kind: report.kind,
      mapping: report.mapping,
      status: report.status,
      matched: report.matched === null ? null : Number(report.matched),
      eventId: report.eventId ?? null,
      turnId: report.turnId ?? null,
      durationMs: Math.max(0, Math.round(report.durationMs)),
      ...payloadOf(report.body),
      headers: keptHeaders(report.headers),
      error: report.error ?? null,
      rerunOf: report.rerunOf ?? null
    };
  }

  #detail(row: DeliveryRow): DeliveryDetail {
    return {
      ...summary(row, this.#session(row)),
      payload: row.payload,
      payloadTruncated: row.payloadTruncated,
      headers: row.headers,
      error: row.error
    };
  }
}
