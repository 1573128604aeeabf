import { roleAtLeast, type Role } from '$lib/contracts/roles';
import type { ProviderSetting, ProviderTestResult } from '$lib/contracts/providers';
import type { BerthConfig } from '../../config/config.schema';
import type { ConsoleProviderRow } from '../../db/repositories/provider.repository';
import { conflict, forbidden, invalid, notFound } from '../../errors';
import type { Agent } from '../agents/agent.definition';
import type { Actor, AuditService } from '../audit/audit.service';
import type { ConsoleProviders } from './console-providers';
import type { ProviderRegistry } from './provider.registry';

/** Who asks, with the role checked here (the adapters check it too). */
export interface ProviderActor extends Actor {
  role: Role;
}

/** Longest "test connection" wait for the endpoint's model list. */
const TEST_MS = 10_000;

/**
 * Settings → Providers: OpenAI-compatible endpoints added by admins, beside berth.yaml's
 * `providers:` (read-only here; the file wins a name clash). An API key goes in and never
 * comes back out: answers say only whether one is set, audit entries never carry it.
 */
export class ProviderSettingsService {
  constructor(
    private readonly store: ConsoleProviders,
    private readonly registry: ProviderRegistry,
    private readonly agents: () => Agent[],
    private readonly declared: () => BerthConfig['providers'],
    private readonly audit: AuditService
  ) {}

  list(actor: ProviderActor): ProviderSetting[] {
    requireAdmin(actor);
    const usedBy = (name: string) =>
      this.agents()
        .filter((a) => a.provider === name)
        .map((a) => a.name);
    const file = this.declared();
    const builtin: ProviderSetting = {
      name: 'builtin',
      type: 'builtin',
      source: 'builtin',
      baseUrl: null,
      model: null,
      hasKey: false,
      usedBy: usedBy('builtin')
    };
    const fromFile = Object.entries(file).map(([name, s]): ProviderSetting => ({
      name,
      type: s.type,
      source: 'config',
      baseUrl: s.baseUrl,
      model: s.model ?? null,
      hasKey: Boolean(s.apiKey),
      usedBy: usedBy(name)
    }));
    const fromConsole = this.store
      .rows()
      .filter((row) => !Object.hasOwn(file, row.name))
      .map((row): ProviderSetting => ({
        name: row.name,
        type: 'openai',
        source: 'console',
        baseUrl: row.baseUrl,
        model: row.model,
        hasKey: row.apiKey !== null,
        usedBy: usedBy(row.name)
      }));
    return [builtin, ...fromFile, ...fromConsole];
  }

  add(
    actor: ProviderActor,
    input: { name: string; baseUrl: string; model?: string; apiKey?: string }
  ): ProviderSetting {
    requireAdmin(actor);
    const { name } = input;
    if (Object.hasOwn(this.declared(), name))
      throw conflict(`berth.yaml already defines a provider named ${name}`);
    if (this.registry.all().includes(name) || this.store.get(name))
      throw conflict(`a provider named ${name} already exists`);
    const now = Date.now();
    const apiKey = input.apiKey?.trim() || null;
    this.store.insert({
      name,
      baseUrl: input.baseUrl,
      model: input.model?.trim() || null,
      apiKey,
      createdBy: actor.id,
      createdAt: now,
      updatedAt: now
    });
    this.audit.record(actor, 'provider.settings.add', name, {
      baseUrl: input.baseUrl,
      model: input.model?.trim() || null,
      key: apiKey ? 'set' : 'none'
    });
    return this.list(actor).find((p) => p.name === name)!;
  }

  /** A new base URL or model; a new key only when one is given, else the stored one stays. */
  update(
    actor: ProviderActor,
    input: { name: string; baseUrl: string; model?: string; apiKey?: string }
  ): ProviderSetting {
    requireAdmin(actor);
    const row = this.#consoleRow(input.name);
    const model = input.model?.trim() || null;
    const apiKey = input.apiKey?.trim() || undefined;
    this.store.update(row.name, {
      baseUrl: input.baseUrl,
      model,
      updatedAt: Date.now(),
      ...(apiKey ? { apiKey } : {})
    });
    this.audit.record(actor, 'provider.settings.update', row.name, {
      baseUrl: input.baseUrl,
      model,
      key: apiKey ? 'replaced' : row.apiKey ? 'kept' : 'none'
    });
    return this.list(actor).find((p) => p.name === row.name)!;
  }

  /** Refused while an agent names the provider: it would stop answering. */
  remove(actor: ProviderActor, input: { name: string }): { removed: string } {
    requireAdmin(actor);
    const row = this.#consoleRow(input.name);
    const users = this.agents().filter((a) => a.provider === row.name);
    if (users.length)
      throw conflict(
        `provider ${row.name} is used by agent ${users.map((a) => a.name).join(', ')}: pick another provider for it first`
      );
    this.store.delete(row.name);
    this.audit.record(actor, 'provider.settings.remove', row.name, { baseUrl: row.baseUrl });
    return { removed: row.name };
  }

  /** A console provider the file does not shadow; the file's are changed in the file. */
  #consoleRow(name: string): ConsoleProviderRow {
    if (Object.hasOwn(this.declared(), name))
      throw invalid(`provider ${name} comes from berth.yaml: change it there`);
    const row = this.store.get(name);
    if (!row) throw notFound(`provider ${name}`);
    return row;
  }

  /** "Test connection": `GET {baseUrl}/models` with the provider's key and headers. */
  async test(actor: ProviderActor, input: { name: string }): Promise<ProviderTestResult> {
    requireAdmin(actor);
    if (!this.registry.all().includes(input.name)) throw notFound(`provider ${input.name}`);
    const provider = this.registry.resolve(input.name);
    if (!provider.models)
      throw invalid(`provider ${input.name} is embedded: it has no endpoint to test`);
    try {
      return { name: input.name, models: await provider.models(AbortSignal.timeout(TEST_MS)) };
    } catch (err) {
      // The provider's own words: "provider x answered 401: invalid API key" and the like.
      throw invalid(err instanceof Error ? err.message : String(err));
    }
  }
}

function requireAdmin(actor: ProviderActor): void {
  if (!roleAtLeast(actor.role, 'admin'))
    throw forbidden('Needs the admin role to manage providers');
}
