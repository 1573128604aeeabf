import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { hash, timingSafeEqual } from 'node:crypto';
import type { Role } from '$lib/contracts/roles';
import type { BerthConfig } from '../../config/config.schema';
import type { AccessRepository } from '../../db/repositories/access.repository';
import type { Actor, AuditService } from '../audit/audit.service';
import type { DomainBus } from '../bus';
import { conflict, notFound } from '../errors';

export interface RpcCredential {
  id: string;
  hash: string;
  name: string;
  permissions: string[];
  source: 'config' | 'console';
}

export interface RestCredential {
  id: string;
  hash: string;
  name: string;
  role: Role;
  source: 'config' | 'console';
}

export interface CredentialView {
  id: string;
  name: string;
  prefix: string | null;
  source: 'config' | 'console';
  createdAt: number | null;
  rotatedAt?: number | null;
}

// node:crypto's one-shot native SHA-256: this runs on every gateway request.
export const hashSecret = (secret: string): string => hash('sha256', secret, 'hex');

function newSecret(prefix: string): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return `${prefix}_${encodeBase32LowerCaseNoPadding(bytes)}`;
}

/** Looks a secret up by its hash, then compares the hashes in constant time. */
function lookup<T extends { hash: string }>(map: Map<string, T>, secret: string): T | null {
  if (!secret || secret.length > 512) return null;
  const hash = hashSecret(secret);
  const found = map.get(hash);
  if (!found) return null;
  return timingSafeEqual(Buffer.from(found.hash, 'hex'), Buffer.from(hash, 'hex')) ? found : null;
}

/**
 * RPC tokens and REST API keys, from the config file (read-only) and the console (SQLite, only
 * their SHA-256 kept, the secret shown once), plus the webhook token. Lookups are in memory.
 */
export class CredentialService {
  #rpc = new Map<string, RpcCredential>();
  #rest = new Map<string, RestCredential>();
  #webhookHash: Buffer | null = null;
  #config: BerthConfig;

  constructor(
    private readonly repo: AccessRepository,
    config: BerthConfig,
    private readonly audit: AuditService,
    private readonly bus: DomainBus
  ) {
    this.#config = config;
    this.refresh();
  }

  apply(config: BerthConfig): void {
    this.#config = config;
    this.refresh();
  }

  refresh(): void {
    const rpc = new Map<string, RpcCredential>();
    for (const t of this.#config.gateway.rpc.auth.tokens) {
      const hash = hashSecret(t.token);
      rpc.set(hash, {
        id: `config:${t.name}`,
        hash,
        name: t.name,
        permissions: t.permissions,
        source: 'config'
      });
    }
    for (const row of this.repo.activeRpcTokens())
      rpc.set(row.hash, {
        id: row.id,
        hash: row.hash,
        name: row.name,
        permissions: row.permissions,
        source: 'console'
      });
    const rest = new Map<string, RestCredential>();
    for (const k of this.#config.gateway.rest.apiKeys) {
      const hash = hashSecret(k.key);
      rest.set(hash, {
        id: `config:${k.name}`,
        hash,
        name: k.name,
        role: k.role,
        source: 'config'
      });
    }
    for (const row of this.repo.activeApiKeys())
      rest.set(row.hash, {
        id: row.id,
        hash: row.hash,
        name: row.name,
        role: row.role,
        source: 'console'
      });
    this.#rpc = rpc;
    this.#rest = rest;
    const webhook = this.#config.webhooks.token;
    this.#webhookHash = webhook ? Buffer.from(hashSecret(webhook), 'hex') : null;
  }

  authenticateRpc(token: string): RpcCredential | null {
    return lookup(this.#rpc, token);
  }

  authenticateRest(key: string): RestCredential | null {
    return lookup(this.#rest, key);
  }

  webhookTokenMatches(token: string): boolean {
    if (!this.#webhookHash || !token || token.length > 512) return false;
    return timingSafeEqual(this.#webhookHash, Buffer.from(hashSecret(token), 'hex'));
  }

  get webhookTokenConfigured(): boolean {
    return this.#webhookHash !== null;
  }

  static permits(credential: RpcCredential, method: string): boolean {
    return credential.permissions.includes('*') || credential.permissions.includes(method);
  }

  listRpcTokens(): (CredentialView & { permissions: string[] })[] {
    const fromConfig = this.#config.gateway.rpc.auth.tokens.map((t) => ({
      id: `config:${t.name}`,
      name: t.name,
      prefix: null,
      source: 'config' as const,
      createdAt: null,
      permissions: t.permissions
    }));
    const fromDb = this.repo.activeRpcTokens().map((r) => ({
      id: r.id,
      name: r.name,
      prefix: r.prefix,
      source: 'console' as const,
      createdAt: r.createdAt,
      rotatedAt: r.rotatedAt ?? null,
      permissions: r.permissions
    }));
    return [...fromConfig, ...fromDb];
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

  listApiKeys(): (CredentialView & { role: Role })[] {
    const fromConfig = this.#config.gateway.rest.apiKeys.map((k) => ({
      id: `config:${k.name}`,
      name: k.name,
      prefix: null,
      source: 'config' as const,
      createdAt: null,
      role: k.role
    }));
    const fromDb = this.repo.activeApiKeys().map((r) => ({
      id: r.id,
      name: r.name,
      prefix: r.prefix,
      source: 'console' as const,
      createdAt: r.createdAt,
      role: r.role
    }));
    return [...fromConfig, ...fromDb];
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

  revokeApiKey(id: string, actor: Actor): void {
    const current = this.repo.activeApiKeys().find((r) => r.id === id);
    if (!current) throw notFound('API key');
    this.repo.revokeApiKey(id, Date.now());
    this.refresh();
    this.bus.emit('credential.revoked', { kind: 'rest', id, name: current.name });
    this.audit.record(actor, 'api-key.revoke', current.name);
  }
}
