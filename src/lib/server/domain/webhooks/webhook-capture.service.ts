import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { timingSafeEqual } from 'node:crypto';
import type { CaptureOpened, CaptureStatus, CapturedDelivery } from '$lib/contracts/webhooks';
import { DomainError, notFound } from '../../errors';
import { hashSecret } from '../access/credential.service';
import type { AuditService } from '../audit/audit.service';
import { keptHeaders } from './delivery-log.service';
import { requireRole, type WebhookActor } from './webhook-actor';

/** A capture answers once, within this time; its payload is dropped when it ends. */
export const CAPTURE_TTL_MS = 15 * 60_000;
/** Open captures at once (all users): each holds at most one payload in memory. */
export const CAPTURE_MAX_OPEN = 50;
/** A captured body past this many characters of JSON is refused (the capture stays open). */
export const CAPTURE_BODY_MAX = 256 * 1024;

interface Capture {
  id: string;
  owner: string | null;
  digest: Buffer;
  expiresAt: number;
  delivery: CapturedDelivery | null;
  timer: ReturnType<typeof setTimeout>;
  watchers: Set<CaptureWatcher>;
}

/** Why a capture stopped answering: its 15 minutes ran out, or its opener closed it. */
export type CaptureEnd = 'expired' | 'closed';

/** Told the moment a capture's delivery arrives, and when the capture ends. */
export interface CaptureWatcher {
  delivered(delivery: CapturedDelivery): void;
  ended(reason: CaptureEnd): void;
}

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const random = (bytes: number) => {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return encodeBase32LowerCaseNoPadding(buf);
};

/**
 * The wizard's "listen for the next real delivery": a temporary endpoint with its own token
 * (only its SHA-256 kept) that takes one delivery within 15 minutes, keeps it in memory for
 * the user who opened it (headers without secrets) and forgets it at expiry. Nothing is
 * written to the database and nothing reaches an agent.
 */
export class WebhookCaptureService {
  readonly #open = new Map<string, Capture>();

  constructor(
    private readonly audit: AuditService,
    private readonly now: () => number = Date.now
  ) {}

  open(actor: WebhookActor): CaptureOpened {
    requireRole(actor, 'operator', 'capture webhook deliveries');
    if (this.#open.size >= CAPTURE_MAX_OPEN)
      throw new DomainError('RATE_LIMITED', 'Too many captures are open; try again later', {
        retryAfterSeconds: 60
      });
    const id = random(10);
    const token = `bwc_${random(20)}`;
    const expiresAt = this.now() + CAPTURE_TTL_MS;
    const timer = setTimeout(() => this.#end(id, 'expired'), CAPTURE_TTL_MS).unref();
    this.#open.set(id, {
      id,
      owner: actor.id,
      digest: Buffer.from(hashSecret(token), 'hex'),
      expiresAt,
      delivery: null,
      timer,
      watchers: new Set()
    });
    this.audit.record(actor, 'webhook.capture.open', id);
    return { id, token, expiresAt };
  }

  /**
   * Takes the delivery when `token` is this capture's (with `check`, only tries the token).
   * Unknown, expired or already used → NOT_FOUND whatever the token (ids are 80 random bits:
   * telling a live one from a dead one gives nothing away); a wrong token → UNAUTHENTICATED.
   */
  receive(
    id: string,
    token: string | null,
    headers: Headers,
    body: unknown,
    { check = false }: { check?: boolean } = {}
  ): void {
    const capture = this.#live(id);
    if (!capture || capture.delivery) throw notFound('Capture');
    const presented = Buffer.from(hashSecret(token ?? ''), 'hex');
    if (!token || !timingSafeEqual(presented, capture.digest))
      throw new DomainError('UNAUTHENTICATED', token ? 'Invalid token' : 'Missing token');
    // `check`: the token is tried before the body is read.
    if (check) return;
    if ((JSON.stringify(body) ?? '').length > CAPTURE_BODY_MAX)
      throw new DomainError('INVALID', 'The body is over 256 KiB of JSON: too large to capture');
    const delivery = { receivedAt: this.now(), headers: keptHeaders(headers), body };
    capture.delivery = delivery;
    for (const watcher of capture.watchers) watcher.delivered(delivery);
  }

  /** The opener of a live capture, or null when there is none by that id (or it expired). */
  ownerOf(id: string): string | null {
    return this.#live(id)?.owner ?? null;
  }

  /**
   * Follows a live capture (the realtime channel): a delivery that already arrived is told at
   * once. An unknown or expired one is told ended. Returns the function that stops following.
   */
  watch(id: string, watcher: CaptureWatcher): () => void {
    const capture = this.#live(id);
    if (!capture) {
      watcher.ended('expired');
      return () => undefined;
    }
    capture.watchers.add(watcher);
    if (capture.delivery) watcher.delivered(capture.delivery);
    return () => capture.watchers.delete(watcher);
  }

  /** The capture as its opener sees it; anyone else (or after expiry) → NOT_FOUND. */
  status(actor: WebhookActor, id: string): CaptureStatus {
    requireRole(actor, 'operator', 'capture webhook deliveries');
    const capture = this.#mine(actor, id);
    return { id, expiresAt: capture.expiresAt, delivery: capture.delivery };
  }

  /** Ends a capture now (the wizard closed): its payload goes with it. */
  close(actor: WebhookActor, id: string): void {
    requireRole(actor, 'operator', 'capture webhook deliveries');
    this.#mine(actor, id);
    this.#end(id, 'closed');
  }

  /** At shutdown. */
  stop(): void {
    for (const capture of this.#open.values()) clearTimeout(capture.timer);
    this.#open.clear();
  }

  #end(id: string, reason: CaptureEnd): void {
    const capture = this.#open.get(id);
    if (!capture) return;
    clearTimeout(capture.timer);
    this.#open.delete(id);
    for (const watcher of capture.watchers) watcher.ended(reason);
  }

  #mine(actor: WebhookActor, id: string): Capture {
    const capture = this.#live(id);
    if (!capture || capture.owner !== actor.id) throw notFound('Capture');
    return capture;
  }

  #live(id: string): Capture | undefined {
    const capture = this.#open.get(id);
    if (capture && capture.expiresAt <= this.now()) {
      this.#end(id, 'expired');
      return undefined;
    }
    return capture;
  }
}
