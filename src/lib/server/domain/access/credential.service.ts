import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { hash, timingSafeEqual } from 'node:crypto';
import {
  CONFIG_ID_PREFIX,
  type ApiKeyView,
  type CredentialView,
  type RpcTokenView
} from '$lib/contracts/credentials';
import type { Role } from '$lib/contracts/roles';
import type { BerthConfig } from '../../config/config.schema';
import type { AccessRepository } from '../../db/repositories/access.repository';
import type { Actor, AuditService } from '../audit/audit.service';
import type { DomainBus } from '../bus';
import { conflict, notFound } from '../../errors';
import { unlessUnavailable } from '../storage-retry';

/**
 * A credential as the service holds it: the hash that finds it (hex, and decoded once for the
 * constant-time comparison) and what the console shows.
 */
type Held<X> = CredentialView & { hash: string; digest: Buffer } & X;

export type RpcCredential = Held<{ permissions: string[] }>;
export type RestCredential = Held<{ role: Role }>;

export const hashSecret = (secret: string): string => hash('sha256', secret, 'hex');
function newSecret(prefix: string): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return `${prefix}_${encodeBase32LowerCaseNoPadding(bytes)}`;
}

/**
 * Looks a secret up by its hash, then compares the hashes in constant time. Runs on every
 * gateway request: node:crypto's one-shot SHA-256 to hex is the cheapest form (about 0.4 µs;
 * a Buffer result costs 1.1 µs), and the stored side is a Buffer decoded once.
 */
function lookup<T extends { digest: Buffer }>(map: Map<string, T>, secret: string): T | null {
  if (!secret || secret.length > 512) return null;
  const hex = hashSecret(secret);
  const found = map.get(hex);
  if (!found) return null;
  return timingSafeEqual(found.digest, Buffer.from(hex, 'hex')) ? found : null;
}

/**
 * One kind of credential: the config file's entries first (read-only, no prefix or dates to
 * show), then those made in the console. `detail` adds what the kind grants.
 */
function collect<
  C extends { name: string },
  R extends {
    id: string;
    name: string;
    hash: string;
    prefix: string;
    createdAt: number;
    rotatedAt: number | null;
    lastUsedAt: number | null;
  },
  X
>(
  config: readonly C[],
  secretOf: (entry: C) => string,
  rows: readonly R[],
  detail: (entry: C | R) => X
): Held<X>[] {
  return [
    ...config.map((c) => ({
      id: `${CONFIG_ID_PREFIX}${c.name}`,
      name: c.name,
      ...hashes(hashSecret(secretOf(c))),
      prefix: null,
      source: 'config' as const,
      createdAt: null,
      rotatedAt: null,
      lastUsedAt: null,
      ...detail(c)
    })),
    ...rows.map((r) => ({
      id: r.id,
      name: r.name,
      ...hashes(r.hash),
      prefix: r.prefix,
      source: 'console' as const,
      createdAt: r.createdAt,
      rotatedAt: r.rotatedAt,
      lastUsedAt: r.lastUsedAt,
      ...detail(r)
    }))
  ];
}

const hashes = (hash: string) => ({ hash, digest: Buffer.from(hash, 'hex') });

const byHash = <T extends { hash: string }>(list: T[]) => new Map(list.map((c) => [c.hash, c]));

// Lists go to the console: the hash stays here.
const withoutHash = <T extends { hash: string; digest: Buffer }>({
  hash: _hash,
  digest: _digest,
  ...view
}: T) => view;

/**
 * RPC tokens and REST API keys, from the config file (read-only) and the console (SQLite, only
 * their SHA-256 kept, the secret shown once). Lookups are in memory; webhook tokens live in
 * domain/webhooks.
 */
export class CredentialService {
  #rpc = new Map<string, RpcCredential>();
  #rest = new Map<string, RestCredential>();
  #config: BerthConfig;
  /**
   * Last uses seen since start, by credential id (a config entry's are known only here), and
   * the console ones not yet written: a request costs a map write, the database a transaction
   * every few seconds.
   */
  #seen = new Map<string, number>();
  #unwritten = new Map<string, 'rpc' | 'rest'>();
  #timer: NodeJS.Timeout;

  constructor(
    private readonly repo: AccessRepository,
    config: BerthConfig,
    private readonly audit: AuditService,
    private readonly bus: DomainBus,
    flushEveryMs = 10_000
  ) {
    this.#config = config;
    this.refresh();
    this.#timer = setInterval(() => this.flushLastUse(), flushEveryMs).unref();
  }

  /** Writes the last uses held in memory; while storage refuses them they wait. */
  flushLastUse(): void {
    if (!this.#unwritten.size) return;
    const uses = [...this.#unwritten].map(([id, kind]) => ({ kind, id, at: this.#seen.get(id)! }));
    if (unlessUnavailable(() => this.repo.touch(uses))) this.#unwritten.clear();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.flushLastUse();
  }

  #used<T extends CredentialView>(found: T | null, kind: 'rpc' | 'rest'): T | null {
    if (!found) return null;
    this.#seen.set(found.id, Date.now());
    if (found.source === 'console') this.#unwritten.set(found.id, kind);
    return found;
  }

  /** A view with the last use seen in memory when it is newer than the stored one. */
  #view = <T extends Held<object>>(held: T) => {
    const view = withoutHash(held);
    const seen = this.#seen.get(held.id);
    return seen && seen > (view.lastUsedAt ?? 0) ? { ...view, lastUsedAt: seen } : view;
  };

  apply(config: BerthConfig): void {
    this.#config = config;
    this.refresh();
  }

  refresh(): void {
    this.#rpc = byHash(this.#rpcTokens());
    this.#rest = byHash(this.#apiKeys());
  }

  #rpcTokens(): RpcCredential[] {
    return collect(
      this.#config.gateway.rpc.auth.tokens,
      (t) => t.token,
      this.repo.activeRpcTokens(),
      (entry) => ({ permissions: entry.permissions })
    );
  }

  #apiKeys(): RestCredential[] {
    return collect(
      this.#config.gateway.rest.apiKeys,
      (k) => k.key,
      this.repo.activeApiKeys(),
      (entry) => ({ role: entry.role })
    );
  }

  authenticateRpc(token: string): RpcCredential | null {
    return this.#used(lookup(this.#rpc, token), 'rpc');
  }

  authenticateRest(key: string): RestCredential | null {
    return this.#used(lookup(this.#rest, key), 'rest');
  }

  static permits(credential: RpcCredential, method: string): boolean {
    return credential.permissions.includes('*') || credential.permissions.includes(method);
  }

  listRpcTokens(): RpcTokenView[] {
    return this.#rpcTokens().map(this.#view);
  }

  createRpcToken(
    name: string,
    permissions: string[],
    actor: Actor
  ): { id: string; name: string; token: string; permissions: string[] } {
    if (
      this.#config.gateway.rpc.auth.tokens.some((t) => t.name === name) ||
      this.repo.rpcTokenByName(name)?.revokedAt === null
    )
      throw conflict(`A token named ${name} exists`);
    if (this.repo.rpcTokenByName(name))
      throw conflict(`The name ${name} was used by a revoked token; choose another`);
    const token = newSecret('brt');
    const row = this.repo.insertRpcToken({
      id: crypto.randomUUID(),
      name,
      hash: hashSecret(token),
      prefix: token.slice(0, 8),
      permissions,
      createdBy: actor.email,
      createdAt: Date.now()
    });
    this.refresh();
    this.audit.record(actor, 'rpc-token.create', name, { permissions });
    return { id: row.id, name, token, permissions };
  }

  /** A new secret for the same token; the old one stops working at once. */
  rotateRpcToken(id: string, actor: Actor): { id: string; name: string; token: string } {
    const current = this.repo.activeRpcTokens().find((r) => r.id === id);
    if (!current) throw notFound('Token');
    const token = newSecret('brt');
    this.repo.updateRpcToken(id, {
      hash: hashSecret(token),
      prefix: token.slice(0, 8),
      rotatedAt: Date.now()
    });
    this.refresh();
    this.bus.emit('credential.revoked', { kind: 'rpc', id, name: current.name });
    this.audit.record(actor, 'rpc-token.rotate', current.name);
    return { id, name: current.name, token };
  }

  revokeRpcToken(id: string, actor: Actor): void {
    const current = this.repo.activeRpcTokens().find((r) => r.id === id);
    if (!current) throw notFound('Token');
    this.repo.updateRpcToken(id, { revokedAt: Date.now() });
    this.refresh();
    this.bus.emit('credential.revoked', { kind: 'rpc', id, name: current.name });
    this.audit.record(actor, 'rpc-token.revoke', current.name);
  }

  listApiKeys(): ApiKeyView[] {
    return this.#apiKeys().map(this.#view);
  }

  createApiKey(
    name: string,
    role: Role,
    actor: Actor
  ): { id: string; name: string; key: string; role: Role } {
    if (
      this.#config.gateway.rest.apiKeys.some((k) => k.name === name) ||
      this.repo.apiKeyByName(name)
    )
      throw conflict(`An API key named ${name} exists or existed; choose another name`);
    const key = newSecret('brk');
    const row = this.repo.insertApiKey({
      id: crypto.randomUUID(),
      name,
      hash: hashSecret(key),
      prefix: key.slice(0, 8),
      role,
      createdBy: actor.email,
      createdAt: Date.now()
    });
    this.refresh();
    this.audit.record(actor, 'api-key.create', name, { role });
    return { id: row.id, name, key, role };
  }

  /** A new secret for the same key; the old one stops working at once. */
  rotateApiKey(id: string, actor: Actor): { id: string; name: string; key: string } {
    const current = this.repo.activeApiKeys().find((r) => r.id === id);
    if (!current) throw notFound('API key');
    const key = newSecret('brk');
    this.repo.updateApiKey(id, {
      hash: hashSecret(key),
      prefix: key.slice(0, 8),
      rotatedAt: Date.now()
    });
    this.refresh();
    this.bus.emit('credential.revoked', { kind: 'rest', id, name: current.name });
    this.audit.record(actor, 'api-key.rotate', current.name);
    return { id, name: current.name, key };
  }

  revokeApiKey(id: string, actor: Actor): void {
    const current = this.repo.activeApiKeys().find((r) => r.id === id);
    if (!current) throw notFound('API key');
    this.repo.revokeApiKey(id, Date.now());
    this.refresh();
    this.bus.emit('credential.revoked', { kind: 'rest', id, name: current.name });
    this.audit.record(actor, 'api-key.revoke', current.name);
  }
}
