import {
  createAgentInput,
  updateAgentInput,
  type AgentChange,
  type AgentOptions,
  type AgentView,
  type CreateAgentInput,
  type UpdateAgentInput
} from '$lib/contracts/agents';
import type { AgentInfo, SkillInfo } from '$lib/contracts/assistant';
import type { ConfigStore } from '../../config/config.store';
import type { BerthConfig } from '../../config/config.schema';
import type { AgentRepository, AgentRow } from '../../db/repositories/agent.repository';
import type { Actor, AuditService } from '../audit/audit.service';
import type { DomainBus } from '../bus';
import { conflict, DomainError, invalid, notFound } from '../../errors';
import type { Provider } from '../providers/provider';
import type { ProviderRegistry } from '../providers/provider.registry';
import { configAgents, parseInput, rowAgent, sameAgent, type Agent } from './agent.definition';

export type { Agent } from './agent.definition';

export interface AgentRuntime {
  lastHeartbeatAt: number | null;
  nextHeartbeatAt: number | null;
}

/** What an agent's state is read from: its running turns, queued events and last turn. */
export interface AgentCounters {
  running(name: string): number;
  queuedEvents(name: string): number;
  lastFailed(name: string): boolean;
}

const EDITABLE = [
  'description',
  'provider',
  'model',
  'systemPrompt',
  'skills',
  'heartbeatMs',
  'channel'
] as const;

/**
 * Agents from the config file (read-only here) and from the console (SQLite), and their live
 * state. A name the config declares wins over a console row of the same name; that row is kept
 * and shown as shadowed. Every change is audited and announced as `agent.changed`, which the
 * heartbeats and the turn runner follow.
 */
export class AgentService {
  #fromConfig: Map<string, Agent>;
  readonly #rows = new Map<string, AgentRow>();
  /** The agents in force: config ones, then console ones the config does not shadow. */
  #agents = new Map<string, Agent>();
  readonly #runtime = new Map<string, AgentRuntime>();
  constructor(
    private readonly config: ConfigStore,
    private readonly bus: DomainBus,
    private readonly repo: AgentRepository,
    private readonly skills: { list(): SkillInfo[] },
    private readonly audit: AuditService,
    private readonly providers: ProviderRegistry,
    private readonly counters: AgentCounters
  ) {
    for (const row of repo.all()) this.#rows.set(row.name, row);
    this.#fromConfig = configAgents(config.current);
    this.#agents = this.#merge();
  }

  /** The agents in force, without their state (no queries). */
  all(): Agent[] {
    return [...this.#agents.values()];
  }

  list(): AgentInfo[] {
    return this.all().map((a) => this.#info(a));
  }

  find(name: string): Agent | undefined {
    return this.#agents.get(name);
  }

  require(name: string): Agent {
    const agent = this.#agents.get(name);
    if (!agent) throw notFound(`Agent ${name}`);
    return agent;
  }

  /**
   * For new work (turns, wake events). INVALID rather than CONFLICT: every adapter answers it
   * within its documented statuses (REST and webhooks 400, RPC -32602, the console 400).
   */
  requireEnabled(name: string): Agent {
    const agent = this.require(name);
    if (agent.disabled) throw invalid(`Agent ${name} is disabled; enable it to send it work`);
    return agent;
  }

  /**
   * The agent that takes a message naming none, the same for every interface: the first
   * config agent (never disabled), else the first enabled console agent, else the first one
   * (which then refuses the work as disabled). No queries: definitions only.
   */
  defaultAgent(): Agent {
    const all = this.all();
    const agent = all.find((a) => !a.disabled) ?? all[0];
    if (!agent) throw invalid('No agent exists to take the message');
    return agent;
  }

  /** The agent a sender's optional `agent` field picks: the named one, or the default. */
  resolveTarget(name: string | undefined): Agent {
    if (name === undefined) return this.defaultAgent();
    const agent = this.#agents.get(name);
    if (!agent) throw invalid(`agent ${name} does not exist`);
    return agent;
  }

  info(name: string): AgentInfo {
    return this.#info(this.require(name));
  }

  status(name: string) {
    const agent = this.require(name);
    const runtime = this.#runtime.get(name);
    return {
      name,
      state: this.#state(agent),
      queuedEvents: this.counters.queuedEvents(name),
      runningTurns: this.counters.running(name),
      lastHeartbeatAt: runtime?.lastHeartbeatAt ?? null,
      nextHeartbeatAt: agent.disabled ? null : (runtime?.nextHeartbeatAt ?? null)
    };
  }

  setHeartbeat(name: string, runtime: AgentRuntime): void {
    this.#runtime.set(name, runtime);
  }

  /** A turn started or ended: subscribers hear the agent's state. */
  touch(name: string): void {
    this.#announce(name, 'state');
  }

  /** The agent's provider from the registry; INVALID, naming the provider, when none can run. */
  provider(agent: Agent): Provider {
    return this.providers.resolve(agent.provider);
  }

  /** Re-reads the config file and applies this agent's settings; the old ones stay on error. */
  reload(name: string): { name: string; reloaded: true } {
    this.require(name);
    const result = this.config.reload();
    if (!result.ok) throw new DomainError('INVALID', result.error);
    this.apply(this.config.current);
    this.require(name);
    this.touch(name);
    return { name, reloaded: true };
  }

  /** Applies a new configuration (system.reload); agents that came, went or changed are announced. */
  apply(config: BerthConfig): void {
    const before = this.#agents;
    this.#fromConfig = configAgents(config);
    this.#agents = this.#merge();
    for (const [name, agent] of this.#agents) {
      const old = before.get(name);
      if (!old) this.#announce(name, 'created');
      else if (!sameAgent(old, agent)) this.#announce(name, 'updated');
    }
    for (const name of before.keys()) if (!this.#agents.has(name)) this.#gone(name);
  }

  /** Every agent for the console, shadowed console rows included. */
  views(): AgentView[] {
    const views = [...this.#fromConfig.values()].map((a) => this.#view(a, null));
    for (const row of this.#rows.values()) views.push(this.#view(rowAgent(row), row));
    return views;
  }

  options(): AgentOptions {
    return {
      providers: this.#providers(),
      skills: this.skills.list().map(({ id, name, description }) => ({ id, name, description }))
    };
  }

  create(input: CreateAgentInput, actor: Actor): AgentView {
    const def = parseInput(createAgentInput, input);
    if (this.#fromConfig.has(def.name))
      throw conflict(`An agent named ${def.name} is declared in the config file`);
    if (this.#rows.has(def.name)) throw conflict(`An agent named ${def.name} exists`);
    this.#checkReferences(def);
    const now = Date.now();
    const row = this.repo.insert({ ...def, disabled: false, createdAt: now, updatedAt: now });
    this.#store(row);
    this.audit.record(actor, 'agent.create', def.name, {
      provider: def.provider,
      model: def.model,
      skills: def.skills,
      heartbeatMs: def.heartbeatMs
    });
    this.#announce(def.name, 'created');
    return this.#view(rowAgent(row), row);
  }

  /** Replaces every setting of a console agent; nothing is written when nothing changed. */
  update(input: UpdateAgentInput, actor: Actor): AgentView {
    const { name, ...settings } = parseInput(updateAgentInput, input);
    const current = this.#editable(name);
    this.#checkReferences(settings);
    const changed = EDITABLE.filter(
      (key) => JSON.stringify(current[key]) !== JSON.stringify(settings[key])
    );
    if (!changed.length) return this.#view(rowAgent(current), current);
    const row = this.repo.update(name, { ...settings, updatedAt: Date.now() })!;
    this.#store(row);
    this.audit.record(actor, 'agent.update', name, { changed });
    this.#announce(name, 'updated');
    return this.#view(rowAgent(row), row);
  }

  /** A disabled agent keeps its queue but takes no new work and runs nothing until enabled. */
  setDisabled(name: string, disabled: boolean, actor: Actor): AgentView {
    const current = this.#editable(name);
    if (current.disabled === disabled) return this.#view(rowAgent(current), current);
    const row = this.repo.update(name, { disabled, updatedAt: Date.now() })!;
    this.#store(row);
    this.audit.record(actor, disabled ? 'agent.disable' : 'agent.enable', name);
    this.#announce(name, 'updated');
    return this.#view(rowAgent(row), row);
  }

  /** Deletes a console agent; its queued turns are cancelled and queued events failed. */
  delete(name: string, actor: Actor): void {
    this.#consoleRow(name);
    const shadowed = this.#fromConfig.has(name);
    this.repo.delete(name);
    this.#rows.delete(name);
    this.#agents = this.#merge();
    this.audit.record(actor, 'agent.delete', name, shadowed ? { shadowed } : undefined);
    // A shadowed row was never in force: the config agent of that name carries on untouched.
    if (!shadowed) this.#gone(name);
  }

  #consoleRow(name: string): AgentRow {
    const row = this.#rows.get(name);
    if (row) return row;
    if (this.#fromConfig.has(name))
      throw invalid(`Agent ${name} is declared in the config file; change it there`);
    throw notFound(`Agent ${name}`);
  }

  /** A console row that is in force; a shadowed one can only be deleted. */
  #editable(name: string): AgentRow {
    const row = this.#consoleRow(name);
    if (this.#fromConfig.has(name))
      throw invalid(
        `The config file now declares an agent named ${name}, which wins; delete this console agent or remove ${name} from the config`
      );
    return row;
  }

  #checkReferences(def: { provider: string; skills: string[] }): void {
    const providers = this.#providers();
    if (!providers.includes(def.provider))
      throw invalid(`provider: unknown provider ${def.provider} (known: ${providers.join(', ')})`);
    const known = new Set(this.skills.list().map((s) => s.id));
    const unknown = def.skills.filter((id) => !known.has(id));
    if (unknown.length) throw invalid(`skills: unknown skill ${unknown.join(', ')}`);
  }

  #providers(): string[] {
    return this.providers.all();
  }

  #store(row: AgentRow): void {
    this.#rows.set(row.name, row);
    this.#agents = this.#merge();
  }

  #merge(): Map<string, Agent> {
    const merged = new Map(this.#fromConfig);
    for (const row of this.#rows.values())
      if (!merged.has(row.name)) merged.set(row.name, rowAgent(row));
    return merged;
  }

  #gone(name: string): void {
    this.#runtime.delete(name);
    this.bus.emit('agent.changed', { name, change: 'deleted', state: null });
  }

  #announce(name: string, change: Exclude<AgentChange, 'deleted'>): void {
    const agent = this.#agents.get(name);
    if (agent) this.bus.emit('agent.changed', { name, change, state: this.#state(agent) });
  }

  #state(agent: Agent): AgentInfo['state'] {
    if (agent.disabled) return 'disabled';
    if (!this.providers.has(agent.provider)) return 'error';
    if (this.counters.running(agent.name) > 0) return 'running';
    return this.counters.lastFailed(agent.name) ? 'error' : 'idle';
  }

  #info(agent: Agent): AgentInfo {
    return {
      name: agent.name,
      description: agent.description,
      state: this.#state(agent),
      provider: agent.provider,
      model: agent.model,
      source: agent.source
    };
  }

  #view(agent: Agent, row: AgentRow | null): AgentView {
    const { name, description, provider, model, systemPrompt, skills, heartbeatMs, channel } =
      agent;
    const shadowed = row !== null && this.#fromConfig.has(name);
    return {
      name,
      description,
      provider,
      model,
      systemPrompt,
      skills,
      heartbeatMs,
      channel,
      source: agent.source,
      disabled: agent.disabled,
      state: shadowed ? 'shadowed' : this.#state(agent),
      createdAt: row?.createdAt ?? null,
      updatedAt: row?.updatedAt ?? null
    };
  }
}
