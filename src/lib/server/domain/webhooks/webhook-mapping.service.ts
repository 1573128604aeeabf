import {
  BUILTIN_HOOKS,
  mappingNameInput,
  saveMappingInput,
  type MappingSource,
  type MappingView,
  type SaveMappingInput,
  type WebhookMapping
} from '$lib/contracts/webhooks';
import { templateHeaders } from '$lib/webhooks/headers';
import { mappingMatches } from '$lib/webhooks/match';
import { renderTemplate } from '$lib/webhooks/template';
import type { ConfigStore } from '../../config/config.store';
import type { BerthConfig } from '../../config/config.schema';
import type {
  WebhookMappingRow,
  WebhookRepository
} from '../../db/repositories/webhook.repository';
import { z } from 'zod';
import { conflict, invalid, notFound } from '../../errors';
import type { AuditService } from '../audit/audit.service';
import type { TurnService } from '../turns/turn.service';
import { requireRole, type WebhookActor } from './webhook-actor';

/** A mapping in force, as the webhook route finds it. */
export interface ActiveMapping {
  name: string;
  mapping: WebhookMapping;
  source: MappingSource;
}

/** What a delivery to a mapping came to. */
export type MappingOutcome =
  | { kind: 'ignored' }
  | { kind: 'queued'; agentName: string; turnId: string; sessionId: string }
  | { kind: 'agent-missing'; agentName: string };

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const BUILTINS = new Set<string>(BUILTIN_HOOKS);

/**
 * The input, or INVALID naming each field at fault (`match.x: must start with headers. or
 * body.`); a bad record key is reported with its own message, not zod's "Invalid key".
 */
function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const text = (issue: z.core.$ZodIssue): string =>
    issue.code === 'invalid_key' && issue.issues[0] ? issue.issues[0].message : issue.message;
  throw invalid(
    parsed.error.issues
      .map((i) => (i.path.length ? `${i.path.join('.')}: ${text(i)}` : text(i)))
      .join('; ')
  );
}

function fileMappings(config: BerthConfig): Map<string, WebhookMapping> {
  return new Map(Object.entries(config.webhooks.mappings).filter(([name]) => !BUILTINS.has(name)));
}

const rowMapping = (row: WebhookMappingRow): WebhookMapping => ({
  match: row.match,
  message: row.message,
  delivery: row.delivery,
  ...(row.session === null ? {} : { session: row.session }),
  ...(row.model === null ? {} : { model: row.model }),
  ...(row.agent === null ? {} : { agent: row.agent })
});

/**
 * Webhook mappings from the config file (read-only here) and from the console (SQLite). A
 * name the file declares wins over a console row of that name, which is kept and shown as
 * shadowed. The route looks a mapping up per request in the in-memory map rebuilt on every
 * change, so a created, changed or deleted mapping answers (or stops) at once.
 */
export class WebhookMappingService {
  #file: Map<string, WebhookMapping>;
  readonly #rows = new Map<string, WebhookMappingRow>();
  #active = new Map<string, ActiveMapping>();

  constructor(
    config: ConfigStore,
    private readonly repo: WebhookRepository,
    private readonly agents: { find(name: string): unknown; defaultAgent(): { name: string } },
    private readonly turns: Pick<TurnService, 'enqueue'>,
    private readonly audit: AuditService
  ) {
    for (const row of repo.mappings()) this.#rows.set(row.name, row);
    this.#file = fileMappings(config.current);
    this.#merge();
  }

  /** The mapping in force under `name`; no query. */
  find(name: string): ActiveMapping | undefined {
    return this.#active.get(name);
  }

  /** A reload (system.reload): the file's mappings follow it. */
  apply(config: BerthConfig): void {
    this.#file = fileMappings(config);
    this.#merge();
  }

  list(actor: WebhookActor): MappingView[] {
    requireRole(actor, 'viewer', 'read webhook mappings');
    const views: MappingView[] = [...this.#file].map(([name, mapping]) => ({
      name,
      mapping,
      source: 'file',
      shadowed: false,
      createdAt: null,
      updatedAt: null
    }));
    for (const row of this.#rows.values()) views.push(this.#view(row));
    return views;
  }

  create(input: SaveMappingInput, actor: WebhookActor): MappingView {
    requireRole(actor, 'operator', 'create webhook mappings');
    const { name, ...mapping } = parse(saveMappingInput, input);
    if (this.#file.has(name))
      throw conflict(`A webhook mapping named ${name} is declared in the config file`);
    if (this.#rows.has(name)) throw conflict(`A webhook mapping named ${name} exists`);
    this.#checkAgent(mapping);
    const now = Date.now();
    const row = this.repo.insertMapping({
      name,
      ...this.#columns(mapping),
      createdBy: actor.email,
      createdAt: now,
      updatedAt: now
    });
    this.#store(row);
    this.audit.record(actor, 'webhook.mapping.create', name, { agent: mapping.agent ?? null });
    return this.#view(row);
  }

  /** Replaces every setting of a console mapping. */
  update(input: SaveMappingInput, actor: WebhookActor): MappingView {
    requireRole(actor, 'operator', 'change webhook mappings');
    const { name, ...mapping } = parse(saveMappingInput, input);
    this.#editable(name);
    this.#checkAgent(mapping);
    const row = this.repo.updateMapping(name, {
      ...this.#columns(mapping),
      updatedAt: Date.now()
    })!;
    this.#store(row);
    this.audit.record(actor, 'webhook.mapping.update', name);
    return this.#view(row);
  }

  delete(name: string, actor: WebhookActor): void {
    requireRole(actor, 'operator', 'delete webhook mappings');
    parse(mappingNameInput, { name });
    if (!this.#rows.has(name)) {
      if (this.#file.has(name))
        throw invalid(`Webhook mapping ${name} is declared in the config file; remove it there`);
      throw notFound(`Webhook mapping ${name}`);
    }
    const shadowed = this.#file.has(name);
    this.repo.deleteMapping(name);
    this.#rows.delete(name);
    this.#merge();
    this.audit.record(actor, 'webhook.mapping.delete', name, shadowed ? { shadowed } : undefined);
  }

  /**
   * Runs a delivery through a mapping: when every condition holds, queues the turn with the
   * rendered message. Headers are filtered as the wizard's preview filters them.
   */
  deliver(active: ActiveMapping, body: unknown, headers: Headers): MappingOutcome {
    const { name, mapping } = active;
    const source = { body, headers: templateHeaders(headers) };
    if (!mappingMatches(mapping.match, source)) return { kind: 'ignored' };
    const agentName = mapping.agent ?? this.agents.defaultAgent().name;
    if (!this.agents.find(agentName)) return { kind: 'agent-missing', agentName };
    const { turnId, sessionId } = this.turns.enqueue({
      agentName,
      sessionKey: mapping.session ?? `webhook:${name}`,
      input: renderTemplate(mapping.message, source),
      source: `webhook:${name}`,
      // The operator wrote the template; the sender filled it in.
      trust: 'external',
      model: mapping.model ?? null,
      context: { mapping: name },
      credential: `webhook:${name}`,
      delivery: mapping.delivery
    });
    return { kind: 'queued', agentName, turnId, sessionId };
  }

  #editable(name: string): WebhookMappingRow {
    const row = this.#rows.get(name);
    if (!row) {
      if (this.#file.has(name))
        throw invalid(`Webhook mapping ${name} is declared in the config file; change it there`);
      throw notFound(`Webhook mapping ${name}`);
    }
    if (this.#file.has(name))
      throw invalid(
        `The config file now declares a webhook mapping named ${name}, which wins; delete this console mapping or remove ${name} from the config`
      );
    return row;
  }

  #checkAgent(mapping: WebhookMapping): void {
    if (mapping.agent !== undefined && !this.agents.find(mapping.agent))
      throw invalid(`agent: agent ${mapping.agent} does not exist`);
  }

  #columns(mapping: WebhookMapping) {
    return {
      match: mapping.match,
      message: mapping.message,
      session: mapping.session ?? null,
      model: mapping.model ?? null,
      agent: mapping.agent ?? null,
      delivery: mapping.delivery
    };
  }

  #store(row: WebhookMappingRow): void {
    this.#rows.set(row.name, row);
    this.#merge();
  }

  #merge(): void {
    const merged = new Map<string, ActiveMapping>();
    for (const [name, mapping] of this.#file) merged.set(name, { name, mapping, source: 'file' });
    for (const row of this.#rows.values())
      if (!merged.has(row.name))
        merged.set(row.name, { name: row.name, mapping: rowMapping(row), source: 'database' });
    this.#active = merged;
  }

  #view(row: WebhookMappingRow): MappingView {
    return {
      name: row.name,
      mapping: rowMapping(row),
      source: 'database',
      shadowed: this.#file.has(row.name),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt
    };
  }
}
