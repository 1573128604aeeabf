/**
 * The app's lifecycle: reads configuration, takes the data lock, opens the database, has the
 * domain built (domain/services.ts), and exposes what the server entry attaches (fast routes,
 * realtime, shutdown).
 */
import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { resolve } from 'node:path';
import type { Readiness } from '$lib/contracts/health';
import { loadConfig } from './config/config.loader';
import { ConfigStore } from './config/config.store';
import { assertSafeBind } from './config/bind-safety';
import { openDatabase, type OpenedDatabase } from './db/client';
import { acquireDataLock } from './db/data-lock';
import { DatabaseHealth } from './db/db-health';
import { SYSTEM_ACTOR, type AuditService } from './domain/audit/audit.service';
import { DomainBus } from './domain/bus';
import { createServices, type Services } from './domain/services';
import { unlessUnavailable } from './domain/storage-retry';
import type { LoginSessionService } from './domain/users/login-session.service';
import type { UserService } from './domain/users/user.service';
import type { EngineClient } from './engine/engine.client';
import { parseDockerHost } from './engine/engine.client';
import { EngineRegistry } from './engine/engine.registry';
import { registryEngineStreams } from './engine/registry-streams';
import { AuthThrottle, retryAfterSeconds } from './gateway/auth/auth-throttle';
import { readCookie, SESSION_COOKIE } from './http/cookie';
import { authenticateFrame, authenticateUpgrade } from './gateway/rpc/rpc.auth';
import { createDispatcher } from './gateway/rpc/rpc.dispatch';
import { RpcWebSocket } from './gateway/rpc/rpc.ws';
import type { GatewayDeps } from './gateway/gateway.deps';
import { gatewayRoutes } from './gateway/routes';
import { FastRouter } from './http/fast-router';
import { createFront } from './http/front';
import { createHostGuard, createOriginGuard } from './http/host-guard';
import { Metrics } from './http/metrics';
import { probeRoutes } from './http/probes';
import { createLogger, type Logger } from './logger';
import { attachRealtime } from './realtime/realtime.server';

export interface AppOptions {
  env?: Record<string, string | undefined>;
  migrationsDir?: string;
}

export interface BerthApp {
  readonly startedAt: number;
  readonly config: ConfigStore;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly database: OpenedDatabase;
  readonly engine: EngineClient;
  readonly engines: EngineRegistry;
  /** The engine services the console's tRPC router calls. */
  readonly engineServices: Services['engine'];
  /** Build-file workspaces and builds for the console's tRPC router and realtime. */
  readonly buildfiles: Services['buildfiles'];
  /** The console's Chat and Activity. */
  readonly chat: Services['chat'];
  /** Settings → Providers for the console's tRPC router. */
  readonly providerSettings: Services['providerSettings'];
  readonly bus: DomainBus;
  readonly audit: AuditService;
  readonly users: UserService;
  readonly loginSessions: LoginSessionService;
  /** The domain behind the REST, RPC and webhook adapters. */
  readonly gateway: GatewayDeps;
  readonly origin: string | undefined;
  readonly bodyLimit: number;
  readiness(): Promise<Readiness>;
  /** Answers a request ahead of SvelteKit, or returns false. */
  front(req: IncomingMessage, res: ServerResponse): boolean;
  /**
   * socket.io and /rpc/ws on the given server. With `ownsUpgrades` (production) other
   * upgrade paths are refused; in dev Vite's HMR socket shares the server and is left alone.
   */
  attach(server: HttpServer, options?: { ownsUpgrades: boolean }): void;
  /** Closes live sockets; call before waiting for HTTP requests to finish. */
  closeRealtime(): Promise<void>;
  /** Releases the database and timers; call last. */
  shutdown(): Promise<void>;
}

export async function createApp(options: AppOptions = {}): Promise<BerthApp> {
  const env = options.env ?? process.env;
  const logger = createLogger(env.LOG_LEVEL);
  const config = new ConfigStore(loadConfig(env), env);
  const { host } = config.current.server;
  const origin = env.ORIGIN || undefined;
  assertSafeBind(config.current, host, origin);

  const dataDir = resolve(env.BERTH_DATA_DIR ?? 'data');
  const dbFile = config.current.database.path
    ? resolve(config.current.database.path)
    : resolve(dataDir, 'berth.db');
  // Refuses to start while another live process uses this database; released in shutdown.
  const lock = acquireDataLock(dbFile);
  let database: OpenedDatabase;
  try {
    database = openDatabase(dbFile, options.migrationsDir ?? resolve('drizzle'), {
      synchronous: config.current.database.synchronous,
      onCheckpointTrouble: (message) => logger.warn(message),
      onAfterCommitError: (err) => logger.error({ err }, 'announcing a committed change failed')
    });
  } catch (err) {
    lock.release();
    throw err;
  }

  const bus = new DomainBus(database.afterCommit);
  const metrics = new Metrics();
  const engines = new EngineRegistry(parseDockerHost(env.DOCKER_HOST), config.current.engines);
  const engine = engines.local;
  const services = createServices({
    db: database.db,
    config,
    bus,
    engines,
    engineKeysDir: resolve(dataDir, 'engine-keys'),
    workspacesDir: resolve(dataDir, 'workspaces')
  });
  const engineStreams = registryEngineStreams(engines);
  const { audit, loginSessions, users, credentials, idempotency } = services;
  const { skills, agents, turns, events, chatSessions, usage, providerHealth, webhooks } = services;

  await bootstrapAdmin(users, env, logger);
  loginSessions.purgeExpired();
  // Housekeeping that a locked database or full disk postpones to the next round.
  const purge = setInterval(
    () => unlessUnavailable(() => loginSessions.purgeExpired()),
    60 * 60_000
  ).unref();

  const databaseHealth = new DatabaseHealth(database.sqlite, (fault, detail) =>
    logger.warn({ fault }, `storage refused a write: ${detail}`)
  );
  const readiness = async (): Promise<Readiness> => {
    const databaseCheck = databaseHealth.check();
    const engineCheck = await engine.check();
    const status =
      databaseCheck.status !== 'ok'
        ? 'unavailable'
        : engineCheck.status !== 'ok'
          ? 'degraded'
          : 'ok';
    return { status, checks: { database: databaseCheck, engine: engineCheck } };
  };

  const bodyLimit = parseBodyLimit(env.BODY_SIZE_LIMIT);
  const authThrottle = new AuthThrottle(() => config.current.gateway.authThrottle, {
    onBlocked: (address, failures, retryAfterMs) =>
      logger.warn(
        { address, failures, retryAfterSeconds: retryAfterSeconds(retryAfterMs) },
        'failed authentications: refusing this address until its window ends'
      )
  });
  const gateway: GatewayDeps = {
    config,
    agents,
    providerHealth,
    turns,
    events,
    chatSessions,
    skills,
    usage,
    webhooks,
    outbound: services.outbound,
    credentials,
    authThrottle,
    audit,
    bus,
    engine,
    idempotency,
    logger,
    bodyLimit,
    startedAt: Date.now(),
    version: env.npm_package_version ?? '0.1.0',
    readiness: () => readiness(),
    reload: () => config.reload(),
    countRpcCall: (method, code, token) => metrics.observeRpcCall(method, code, token)
  };
  const router = new FastRouter();
  const buildRoutes = () => {
    router.clear();
    for (const route of probeRoutes({
      readiness,
      metricsText: () => metrics.text(),
      metricsContentType: metrics.registry.contentType
    }))
      router.add(route);
    const { exact, prefix } = gatewayRoutes(gateway);
    for (const route of exact) router.add(route);
    for (const route of prefix) router.addPrefix(route);
  };
  buildRoutes();
  config.onChange((next) => {
    // Announces each agent that came, went or changed; heartbeats and queues follow that.
    agents.apply(next);
    credentials.apply(next);
    webhooks.mappings.apply(next);
    skills.apply(next.skills);
    webhooks.tokens.apply(next);
    engines.apply(next.engines);
    buildRoutes();
  });
  const recovered = turns.recover();
  const recoveredEvents = services.events.recover();
  // Announce messages a stop left in the outbox go out (those due now at once).
  services.outbound.start();
  const failedRuns = skills.recover();
  // Not awaited: an engine that is slow to answer never delays the start.
  void skills.removeLeftovers().then((removed) => {
    if (removed)
      logger.warn({ containers: removed }, 'removed containers of unfinished skill runs');
  });
  const interruptedBuilds = services.buildfiles.builds.recover();
  if (interruptedBuilds)
    logger.warn({ builds: interruptedBuilds }, 'builds left running by a stop marked failed');
  if (
    recovered.requeued ||
    recovered.failed ||
    recovered.cancelled ||
    failedRuns ||
    recoveredEvents.done ||
    recoveredEvents.requeued
  )
    logger.warn(
      {
        ...recovered,
        failedSkillRuns: failedRuns,
        eventsDone: recoveredEvents.done,
        eventsRequeued: recoveredEvents.requeued
      },
      'recovered work left by an unclean stop'
    );
  const purgeIdempotency = setInterval(
    () => unlessUnavailable(() => idempotency.forgetExpired()),
    3600_000
  ).unref();

  const https = origin?.startsWith('https:') ?? false;
  const acceptsHost = createHostGuard(origin);
  const acceptsOrigin = createOriginGuard(origin);
  const front = createFront({
    router,
    acceptsHost,
    metrics,
    logger,
    bodyLimit,
    https,
    countRequest: (iface, route, status, credential) =>
      usage.countRequest(iface, route, status, credential)
  });
  const acceptsHandshake = (req: IncomingMessage) =>
    acceptsHost(req.headers.host) && acceptsOrigin(req.headers.origin, req.headers.host);

  let realtimeClose: (() => Promise<void>) | undefined;
  let rpcWs: RpcWebSocket | undefined;

  const app: BerthApp = {
    startedAt: Date.now(),
    config,
    logger,
    metrics,
    database,
    engine,
    engines,
    engineServices: services.engine,
    buildfiles: services.buildfiles,
    chat: services.chat,
    providerSettings: services.providerSettings,
    bus,
    audit,
    users,
    loginSessions,
    gateway,
    origin,
    bodyLimit,
    readiness,
    front,
    attach(server, { ownsUpgrades } = { ownsUpgrades: true }) {
      // Heartbeats start once the port is open: the rest of the start never shares the event
      // loop with a backlog's slices.
      if (server.listening) events.start();
      else server.once('listening', () => events.start());
      const realtime = attachRealtime(server, {
        loginSessions,
        bus,
        engines: engineStreams,
        engineServices: services.engine,
        builds: services.buildfiles.builds,
        skills: services.skills,
        activity: services.chat.activity,
        captures: gateway.webhooks.captures,
        logger,
        acceptsHandshake,
        onCount: (n) => metrics.sockets.set({ transport: 'socket.io' }, n)
      });
      realtimeClose = () => realtime.close();
      metrics.logLinesHeld = () => realtime.logLinesHeld;
      const ws = new RpcWebSocket({
        authenticate: (req) =>
          authenticateUpgrade(req, {
            config,
            credentials,
            authThrottle,
            acceptsHost,
            acceptsOrigin,
            consoleUser: (r) => {
              const valid = loginSessions.validate(readCookie(r.headers.cookie, SESSION_COOKIE));
              return valid ? { sessionId: valid.sessionId, ...valid.user } : null;
            }
          }),
        authenticateFrame: (token, address) => authenticateFrame(token, address, gateway),
        dispatch: createDispatcher(gateway),
        bus,
        logger,
        maxPayload: bodyLimit,
        limits: () => config.current.gateway.rpc.ws,
        onCount: (n) => metrics.sockets.set({ transport: 'rpc-ws' }, n)
      });
      rpcWs = ws;
      bus.on('sessions.ended', ({ sessionIds, reason }) => ws.closeSessions(sessionIds, reason));
      config.onChange(() => ws.revalidate());
      server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        const path = (req.url ?? '').split('?')[0];
        if (path === '/rpc/ws') return ws.upgrade(req, socket, head);
        if (path?.startsWith('/socket.io/') || !ownsUpgrades) return; // their own listeners answer
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      });
    },
    async closeRealtime() {
      events.stop();
      turns.stop();
      services.outbound.stop();
      rpcWs?.close();
      await realtimeClose?.();
    },
    shutdown() {
      clearInterval(purge);
      clearInterval(purgeIdempotency);
      usage.stop();
      webhooks.deliveries.stop();
      webhooks.captures.stop();
      credentials.stop();
      databaseHealth.stop();
      database.close();
      lock.release();
      // The last lines (these steps' own) are written, in order, before the process exits; a
      // stdout that takes none is given a second.
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1_000);
        logger.flush(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  audit.record(SYSTEM_ACTOR, 'system.start', null, { configFile: config.file });
  return app;
}

/** BERTH_ADMIN_EMAIL + BERTH_ADMIN_PASSWORD create the first admin when no user exists yet. */
async function bootstrapAdmin(
  users: UserService,
  env: Record<string, string | undefined>,
  logger: Logger
) {
  const email = env.BERTH_ADMIN_EMAIL?.trim().toLowerCase();
  const password = env.BERTH_ADMIN_PASSWORD;
  if (!email || !password || users.hasUsers()) return;
  const { createUserInput } = await import('$lib/contracts/users');
  const parsed = createUserInput.safeParse({
    email,
    password,
    name: email.split('@')[0],
    role: 'admin'
  });
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`BERTH_ADMIN_EMAIL/BERTH_ADMIN_PASSWORD rejected: ${why}`);
  }
  await users.createFirstAdmin(parsed.data, SYSTEM_ACTOR);
  logger.info({ email }, 'first admin created from the environment');
}

/** adapter-node's BODY_SIZE_LIMIT syntax: a byte count with an optional K, M or G. */
export function parseBodyLimit(value: string | undefined): number {
  const match = /^(\d+)([KMG]?)$/i.exec(value ?? '1M');
  if (!match) return 1024 * 1024;
  const scale = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[
    match[2]!.toUpperCase() as '' | 'K' | 'M' | 'G'
  ];
  return Number(match[1]) * scale;
}
