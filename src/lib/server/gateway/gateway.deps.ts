import type { Readiness } from '$lib/contracts/health';
import type { ConfigStore } from '../config/config.store';
import type { CredentialService } from '../domain/access/credential.service';
import type { IdempotencyService } from '../domain/access/idempotency.service';
import type { AgentService } from '../domain/agents/agent.service';
import type { AuditService } from '../domain/audit/audit.service';
import type { DomainBus } from '../domain/bus';
import type { EventService } from '../domain/events/event.service';
import type { ProviderHealth } from '../domain/providers/provider-health';
import type { ChatSessionService } from '../domain/sessions/chat-session.service';
import type { SkillService } from '../domain/skills/skill.service';
import type { TurnService } from '../domain/turns/turn.service';
import type { UsageService } from '../domain/usage/usage.service';
import type { Services } from '../domain/services';
import type { EngineClient } from '../engine/engine.client';
import type { Logger } from '../logger';
import type { AuthThrottle } from './auth/auth-throttle';

/** What the protocol adapters (REST, RPC, webhooks) may use: the domain, never HTTP framework. */
export interface GatewayDeps {
  config: ConfigStore;
  agents: AgentService;
  /** Whether the enabled agents' providers can run and answer (checked lazily, bounded). */
  providerHealth: ProviderHealth;
  turns: TurnService;
  events: EventService;
  /** Agents' conversations (not the console's login sessions). */
  chatSessions: ChatSessionService;
  skills: SkillService;
  usage: UsageService;
  /** Webhook mappings (file and console), webhook tokens and the delivery log. */
  webhooks: Services['webhooks'];
  /** Agents' outbound webhooks and their outbox (announce delivery). */
  outbound: Services['outbound'];
  credentials: CredentialService;
  /** Failed authentications per client address, checked before any credential is. */
  authThrottle: AuthThrottle;
  audit: AuditService;
  bus: DomainBus;
  engine: EngineClient;
  /** Idempotency keys and atomic event + key commits for webhooks. */
  idempotency: IdempotencyService;
  logger: Logger;
  bodyLimit: number;
  startedAt: number;
  version: string;
  readiness(): Promise<Readiness>;
  /** Re-reads the config file (system.reload); the old one stays when the new one is invalid. */
  reload(): { ok: true; changes: string[] } | { ok: false; error: string; issues: string[] };
  /** Counts one JSON-RPC call in /metrics (berth_rpc_calls_total); code 0 is a success. */
  countRpcCall?(method: string, code: number, token: string): void;
}
