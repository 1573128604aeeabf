import type { AgentInfo } from '$lib/contracts/assistant';
import type { ConfigStore } from '../../config/config.store';
import type { BerthConfig } from '../../config/config.schema';
import type { DomainBus } from '../bus';
import { DomainError, notFound } from '../errors';
import { BuiltinProvider } from '../providers/builtin.provider';
import type { Provider } from '../providers/provider';

export interface Agent {
  name: string;
  description: string;
  provider: string;
  model?: string;
  systemPrompt?: string;
  skills: string[];
  heartbeatMs: number;
  channel?: string;
  disabled: boolean;
  source: 'config' | 'console';
}

export interface AgentRuntime {
  lastHeartbeatAt: number | null;
  nextHeartbeatAt: number | null;
}

/**
 * Agents declared in the config file (read-only here) and their live state. The turn runner
 * and heartbeats report to it; it answers which provider an agent thinks with.
 */
export class AgentService {
  #agents = new Map<string, Agent>();
  readonly #runtime = new Map<string, AgentRuntime>();
  readonly #builtin = new BuiltinProvider();
  /** Filled by the composition root: running turns and queued events per agent. */
  counters: {
    running(name: string): number;
    queuedEvents(name: string): number;
    lastFailed(name: string): boolean;
  } = {
    running: () => 0,
    queuedEvents: () => 0,
    lastFailed: () => false
  };

  constructor(
    private readonly config: ConfigStore,
    private readonly bus: DomainBus
  ) {
    this.#load(config.current);
  }

  list(): AgentInfo[] {
    return [...this.#agents.values()].map((a) => this.#info(a));
  }

  find(name: string): Agent | undefined {
    return this.#agents.get(name);
  }

  require(name: string): Agent {
    const agent = this.#agents.get(name);
    if (!agent) throw notFound(`Agent ${name}`);
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
      nextHeartbeatAt: runtime?.nextHeartbeatAt ?? null
    };
  }

  setHeartbeat(name: string, runtime: AgentRuntime): void {
    this.#runtime.set(name, runtime);
  }

  /** A turn started or ended: subscribers hear the agent's state. */
  touch(name: string): void {
    const agent = this.#agents.get(name);
    if (agent) this.bus.emit('agent.changed', { name, state: this.#state(agent) });
  }

  provider(agent: Agent): Provider {
    if (agent.provider === 'builtin') return this.#builtin;
    throw new DomainError('INVALID', `provider ${agent.provider} is not available`);
  }

  /** Re-reads the config file and applies this agent's settings; the old ones stay on error. */
  reload(name: string): { name: string; reloaded: true } {
    this.require(name);
    const result = this.config.reload();
    if (!result.ok) throw new DomainError('INVALID', result.error);
    this.#load(this.config.current);
    this.require(name);
    this.touch(name);
    return { name, reloaded: true };
  }

  /** Applies a new configuration (system.reload). */
  apply(config: BerthConfig): void {
    this.#load(config);
  }

  #load(config: BerthConfig): void {
    const next = new Map<string, Agent>();
    for (const a of config.agents)
      next.set(a.name, {
        name: a.name,
        description: a.description,
        provider: a.provider,
        model: a.model,
        systemPrompt: a.systemPrompt,
        skills: a.skills,
        heartbeatMs: a.heartbeatMs,
        channel: a.channel,
        disabled: false,
        source: 'config'
      });
    this.#agents = next;
  }

  #state(agent: Agent): AgentInfo['state'] {
    if (agent.disabled) return 'disabled';
    if (agent.provider !== 'builtin') return 'error';
    if (this.counters.running(agent.name) > 0) return 'running';
    return this.counters.lastFailed(agent.name) ? 'error' : 'idle';
  }

  #info(agent: Agent): AgentInfo {
    return {
      name: agent.name,
      description: agent.description,
      state: this.#state(agent),
      provider: agent.provider,
      model: agent.model ?? null,
      source: agent.source
    };
  }
}
