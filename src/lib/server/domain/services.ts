/**
 * The domain built from its repositories: one composition, used by the app (app.ts) and the
 * domain tests (testing.ts) alike. Everything is built in dependency order and complete when
 * constructed; nothing is set late. Login sessions (the console's sign-ins) and chat sessions
 * (an agent's conversations) are two different things and are named apart here.
 */
import type { ConfigStore } from '../config/config.store';
import type { Db } from '../db/client';
import { AccessRepository } from '../db/repositories/access.repository';
import { AgentRepository } from '../db/repositories/agent.repository';
import { AuditRepository } from '../db/repositories/audit.repository';
import { BuildFileRepository } from '../db/repositories/buildfile.repository';
import { EngineRepository } from '../db/repositories/engine.repository';
import { OutboundRepository } from '../db/repositories/outbound.repository';
import { ProviderRepository } from '../db/repositories/provider.repository';
import { EventRepository } from '../db/repositories/event.repository';
import { LoginSessionRepository } from '../db/repositories/login-session.repository';
import { SessionRepository } from '../db/repositories/session.repository';
import { SkillRunRepository } from '../db/repositories/skill-run.repository';
import { TurnRepository } from '../db/repositories/turn.repository';
import { UsageRepository } from '../db/repositories/usage.repository';
import { UserRepository } from '../db/repositories/user.repository';
import { WebhookRepository } from '../db/repositories/webhook.repository';
import type { EngineRegistry } from '../engine/engine.registry';
import { TlsFiles } from '../engine/tls-files';
import { sendOutbound } from '../outbound/http-sender';
import { CredentialService } from './access/credential.service';
import { IdempotencyService } from './access/idempotency.service';
import { AgentService } from './agents/agent.service';
import { AuditService } from './audit/audit.service';
import type { DomainBus } from './bus';
import { BuildService } from './buildfiles/build.service';
import { ActivityService } from './chat/activity.service';
import { ConsoleChatService } from './chat/console-chat.service';
import { WorkspaceService } from './buildfiles/workspace.service';
import { ContainerService } from './engine/container.service';
import { EngineAccess } from './engine/engine-access';
import { EngineSettingsService } from './engine/engine-settings.service';
import { ImageService } from './engine/image.service';
import { NetworkService } from './engine/network.service';
import { EngineSystemService } from './engine/system.service';
import { VolumeService } from './engine/volume.service';
import { EventService } from './events/event.service';
import type { OutboundSend } from './outbound/outbound-send';
import { OutboundService } from './outbound/outbound.service';
import { ConsoleProviders } from './providers/console-providers';
import { OpenAiProvider } from './providers/openai/openai.provider';
import { ProviderSettingsService } from './providers/provider-settings.service';
import { ProviderHealth } from './providers/provider-health';
import { ProviderRegistry } from './providers/provider.registry';
import { ChatSessionService } from './sessions/chat-session.service';
import { agentSummarizer } from './sessions/summarizer';
import { builtinSkills } from './skills/builtin-skills';
import { skillRunners } from './skills/runners';
import { SkillService } from './skills/skill.service';
import { LastOutcomes } from './turns/last-outcomes';
import { RunningTurns } from './turns/running-turns';
import { TurnRunner } from './turns/turn.runner';
import { TurnService } from './turns/turn.service';
import { UsageService } from './usage/usage.service';
import { LoginSessionService } from './users/login-session.service';
import { ACCOUNT_THROTTLE, ADDRESS_THROTTLE, LoginThrottle } from './users/login-throttle';
import { UserService } from './users/user.service';
import { DeliveryLogService } from './webhooks/delivery-log.service';
import { WebhookCaptureService } from './webhooks/webhook-capture.service';
import { WebhookMappingService } from './webhooks/webhook-mapping.service';
import { WebhookTokenService } from './webhooks/webhook-token.service';

export interface ServiceSources {
  db: Db;
  config: ConfigStore;
  bus: DomainBus;
  engines: EngineRegistry;
  /** Where uploaded TLS material of console-added engines is written (0600 files). */
  engineKeysDir: string;
  /** Where build-file workspaces keep their files (`<dir>/<workspace id>/`). */
  workspacesDir: string;
  /** How outbound webhooks are POSTed (the real sender unless a test gives its own). */
  sendOutbound?: OutboundSend;
}

export type Services = ReturnType<typeof createServices>;

export function createServices({
  db,
  config,
  bus,
  engines,
  engineKeysDir,
  workspacesDir,
  sendOutbound: send = sendOutbound
}: ServiceSources) {
  const audit = new AuditService(new AuditRepository(db), bus);
  const loginSessions = new LoginSessionService(new LoginSessionRepository(db), bus);
  const throttle = {
    account: new LoginThrottle(ACCOUNT_THROTTLE),
    address: new LoginThrottle(ADDRESS_THROTTLE)
  };
  const users = new UserService(new UserRepository(db), loginSessions, audit, throttle, bus);
  const access = new AccessRepository(db);
  const credentials = new CredentialService(access, config.current, audit, bus);
  const idempotency = new IdempotencyService(access);

  const skills = new SkillService(new SkillRunRepository(db), builtinSkills(engines.local), {
    fileSkills: config.current.skills,
    runners: skillRunners(engines, () => config.current.registries),
    audit
  });
  // An agent's state reads the turns running (kept by TurnService, which needs the agents),
  // so the tally comes first and both get it.
  const runningTurns = new RunningTurns();
  const turnRepo = new TurnRepository(db);
  const eventRepo = new EventRepository(db);
  const outcomes = new LastOutcomes(bus, (name) => turnRepo.lastFinished(name)?.state === 'failed');
  // berth.yaml's providers win a name clash with the console's.
  const consoleProviders = new ConsoleProviders(new ProviderRepository(db));
  const providers = new ProviderRegistry(() => ({
    ...consoleProviders.settings(),
    ...config.current.providers
  }));
  providers.register('openai', (settings, name) => new OpenAiProvider(name, settings!), {
    typeOnly: true
  });
  const agents = new AgentService(config, bus, new AgentRepository(db), skills, audit, providers, {
    running: (name) => runningTurns.of(name),
    queuedEvents: (name) => eventRepo.countQueued(name),
    lastFailed: (name) => outcomes.lastFailed(name)
  });
  const providerHealth = new ProviderHealth(
    () => agents.all(),
    (agent) => agents.provider(agent)
  );
  const providerSettings = new ProviderSettingsService(
    consoleProviders,
    providers,
    () => agents.all(),
    () => config.current.providers,
    audit
  );
  const chatSessionRepo = new SessionRepository(db);
  const outbound = new OutboundService(
    new OutboundRepository(db),
    () => config.current,
    send,
    audit
  );
  bus.on('agent.changed', ({ name, change }) => {
    if (change === 'deleted') outbound.forgetAgent(name);
  });
  const turns = new TurnService(
    turnRepo,
    new TurnRunner(turnRepo, chatSessionRepo, agents, skills, bus, outbound),
    agents,
    bus,
    () => config.current.gateway.turns,
    runningTurns
  );
  const events = new EventService(eventRepo, agents, turns, bus);
  const chatSessions = new ChatSessionService(
    chatSessionRepo,
    bus,
    audit,
    agentSummarizer(agents),
    // An agent's own compaction settings, else sessions.compaction.
    (agentName) =>
      config.current.agents.find((a) => a.name === agentName)?.compaction ??
      config.current.sessions.compaction
  );
  const usage = new UsageService(new UsageRepository(db));
  const webhookRepo = new WebhookRepository(db);
  const mappings = new WebhookMappingService(config, webhookRepo, agents, turns, audit);
  const webhooks = {
    mappings,
    tokens: new WebhookTokenService(webhookRepo, config.current, audit),
    deliveries: new DeliveryLogService(
      webhookRepo,
      mappings,
      audit,
      (turnId) => turnRepo.byId(turnId)?.sessionId ?? null
    ),
    captures: new WebhookCaptureService(audit)
  };
  const chat = {
    console: new ConsoleChatService(turns, chatSessions, chatSessionRepo, audit),
    activity: new ActivityService(turnRepo, eventRepo, chatSessionRepo, webhooks.deliveries)
  };
  const engineAccess = new EngineAccess(engines, audit);
  const engine = {
    containers: new ContainerService(engineAccess),
    images: new ImageService(engineAccess, () => config.current.registries),
    networks: new NetworkService(engineAccess),
    volumes: new VolumeService(engineAccess),
    system: new EngineSystemService(engineAccess),
    settings: new EngineSettingsService(
      new EngineRepository(db),
      engines,
      new TlsFiles(engineKeysDir),
      engineAccess,
      audit
    )
  };

  const buildFileRepo = new BuildFileRepository(db);
  const workspaces = new WorkspaceService(buildFileRepo, workspacesDir, audit);
  const buildfiles = {
    workspaces,
    builds: new BuildService(buildFileRepo, workspaces, engineAccess, audit)
  };

  return {
    audit,
    loginSessions,
    users,
    credentials,
    idempotency,
    skills,
    providers,
    providerHealth,
    providerSettings,
    agents,
    turns,
    events,
    chatSessions,
    usage,
    webhooks,
    chat,
    outbound,
    engine,
    buildfiles
  };
}
