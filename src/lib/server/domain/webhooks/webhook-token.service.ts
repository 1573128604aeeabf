import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import {
  createWebhookTokenInput,
  type WebhookTokenSecret,
  type WebhookTokenView
} from '$lib/contracts/webhooks';
import type { BerthConfig } from '../../config/config.schema';
import type { WebhookRepository, WebhookTokenRow } from '../../db/repositories/webhook.repository';
import { conflict, notFound } from '../../errors';
import { hashSecret } from '../access/credential.service';
import { parseInput } from '../agents/agent.definition';
import type { AuditService } from '../audit/audit.service';
import { unlessUnavailable } from '../storage-retry';
import { requireRole, type WebhookActor } from './webhook-actor';

/** The id the file's `webhooks.token` is listed under; it has no row. */
export const FILE_TOKEN_ID = 'file:webhooks.token';

/** A last-used time is written at most this often per token; the list shows the newest. */
const LAST_USED_WRITE_MS = 60_000;

interface Held {
  id: string;
  name: string;
  digest: Buffer;
}

/** A signing token's secret as an HMAC key, held in memory while the token is active. */
interface Signer {
  id: string;
  name: string;
  key: KeyObject;
}

/** An HMAC-SHA256 digest's length: a presented signature of any other length never matches. */
const SHA256_BYTES = 32;

const digestOf = (hex: string) => Buffer.from(hex, 'hex');
const FILE = Symbol('webhooks.token');

function newSecret(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return `bwh_${encodeBase32LowerCaseNoPadding(bytes)}`;
}

/**
 * Webhook tokens: the file's `webhooks.token` (read-only) and those made in the console
 * (SQLite keeps their SHA-256; the secret is shown once). A presented token is found by
 * its hash in memory and the hashes compared in constant time. A signing token's secret is
 * kept too, to verify GitHub's body signature; the active ones are held in memory, reloaded
 * whenever a token is created, rotated or revoked.
 */
export class WebhookTokenService {
  #byHash = new Map<string, Held>();
  #signers: Signer[] = [];
  #fileDigest: Buffer | null = null;
  readonly #lastUsed = new Map<string, { at: number; written: number }>();

  constructor(
    private readonly repo: WebhookRepository,
    config: BerthConfig,
    private readonly audit: AuditService
  ) {
    this.apply(config);
  }

  apply(config: BerthConfig): void {
    const token = config.webhooks.token;
    this.#fileDigest = token ? digestOf(hashSecret(token)) : null;
    this.#refresh();
  }

  /** The token's name when it is a valid webhook token (the file's is `webhooks.token`). */
  authenticate(token: string): string | null {
    const found = this.#find(token);
    if (found && found !== FILE) this.#touch(found.id);
    return found === FILE ? 'webhooks.token' : (found?.name ?? null);
  }

  /**
   * The name of the active signing token whose secret signed `body` with HMAC-SHA256 into
   * `digest` (GitHub's `X-Hub-Signature-256`), else null. Every signer is tried and each digest
   * compared in constant time.
   */
  /** Whether any active token signs: without one, no signature can be right. */
  get signs(): boolean {
    return this.#signers.length > 0;
  }

  authenticateSignature(digest: Buffer, body: Uint8Array): string | null {
    if (digest.length !== SHA256_BYTES) return null;
    let found: Signer | null = null;
    for (const signer of this.#signers) {
      const expected = createHmac('sha256', signer.key).update(body).digest();
      if (timingSafeEqual(expected, digest)) found ??= signer;
    }
    if (found) this.#touch(found.id);
    return found?.name ?? null;
  }

  /** Whether `token` is valid, recording no use (a token found in a URL is refused). */
  matches(token: string): boolean {
    return this.#find(token) !== null;
  }

  #find(token: string): Held | typeof FILE | null {
    if (!token || token.length > 512) return null;
    const hex = hashSecret(token);
    const presented = digestOf(hex);
    if (this.#fileDigest && timingSafeEqual(this.#fileDigest, presented)) return FILE;
    const held = this.#byHash.get(hex);
    return held && timingSafeEqual(held.digest, presented) ? held : null;
  }

  list(actor: WebhookActor): WebhookTokenView[] {
    requireRole(actor, 'admin', 'read webhook tokens');
    const views: WebhookTokenView[] = this.#fileDigest
      ? [
          {
            id: FILE_TOKEN_ID,
            name: 'webhooks.token',
            prefix: null,
            source: 'file',
            signing: false,
            createdAt: null,
            rotatedAt: null,
            lastUsedAt: null
          }
        ]
      : [];
    for (const row of this.repo.activeTokens())
      views.push({
        id: row.id,
        name: row.name,
        prefix: row.prefix,
        source: 'database',
        signing: row.signingSecret !== null,
        createdAt: row.createdAt,
        rotatedAt: row.rotatedAt,
        lastUsedAt: Math.max(row.lastUsedAt ?? 0, this.#lastUsed.get(row.id)?.at ?? 0) || null
      });
    return views;
  }

  /** `signing`: the token is also a GitHub webhook secret, so the server keeps it. */
  create(name: string, actor: WebhookActor, signing = false): WebhookTokenSecret {
    requireRole(actor, 'admin', 'create webhook tokens');
    ({ name, signing } = parseInput(createWebhookTokenInput, { name, signing }));
    const existing = this.repo.tokenByName(name);
    if (existing)
      throw conflict(
        existing.revokedAt === null
          ? `A webhook token named ${name} exists`
          : `The name ${name} was used by a revoked webhook token; choose another`
      );
    const token = newSecret();
    const row = this.repo.insertToken({
      id: crypto.randomUUID(),
      name,
      hash: hashSecret(token),
      prefix: token.slice(0, 8),
      signingSecret: signing ? token : null,
      createdBy: actor.email,
      createdAt: Date.now()
    });
    this.#refresh();
    this.audit.record(actor, 'webhook.token.create', name, { signing });
    return { id: row.id, name, token, signing };
  }

  /** A new secret for the same token (a signing token stays one); the old one stops at once. */
  rotate(id: string, actor: WebhookActor): WebhookTokenSecret {
    requireRole(actor, 'admin', 'rotate webhook tokens');
    const current = this.#active(id);
    const token = newSecret();
    const signing = current.signingSecret !== null;
    this.repo.updateToken(id, {
      hash: hashSecret(token),
      prefix: token.slice(0, 8),
      signingSecret: signing ? token : null,
      rotatedAt: Date.now()
    });
    this.#refresh();
    this.audit.record(actor, 'webhook.token.rotate', current.name);
    return { id, name: current.name, token, signing };
  }

  revoke(id: string, actor: WebhookActor): void {
    requireRole(actor, 'admin', 'revoke webhook tokens');
    const current = this.#active(id);
    // A revoked GitHub secret is not kept: nothing will check a signature with it again.
    this.repo.updateToken(id, { revokedAt: Date.now(), signingSecret: null });
    this.#refresh();
    this.audit.record(actor, 'webhook.token.revoke', current.name);
  }

  #active(id: string): WebhookTokenRow {
    if (id === FILE_TOKEN_ID)
      throw conflict('webhooks.token is declared in the config file; change or remove it there');
    const row = this.repo.activeTokens().find((r) => r.id === id);
    if (!row) throw notFound('Webhook token');
    return row;
  }

  /** Remembers the use; writes it when the last write of this token is a minute old. */
  #touch(id: string): void {
    const now = Date.now();
    const seen = this.#lastUsed.get(id);
    if (seen && now - seen.written < LAST_USED_WRITE_MS) {
      seen.at = now;
      return;
    }
    this.#lastUsed.set(id, { at: now, written: now });
    // Optional bookkeeping: a locked database must not refuse the delivery.
    unlessUnavailable(() => this.repo.updateToken(id, { lastUsedAt: now }));
  }

  #refresh(): void {
    const rows = this.repo.activeTokens();
    this.#byHash = new Map(
      rows.map((r) => [r.hash, { id: r.id, name: r.name, digest: digestOf(r.hash) }])
    );
    this.#signers = rows.flatMap((r) =>
      r.signingSecret === null
        ? []
        : [{ id: r.id, name: r.name, key: createSecretKey(Buffer.from(r.signingSecret, 'utf8')) }]
    );
  }
}
