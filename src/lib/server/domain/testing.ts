import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseConfig } from '../config/config.loader';
import { ConfigStore } from '../config/config.store';
import { openDatabase } from '../db/client';
import { AgentRepository } from '../db/repositories/agent.repository';
import { AuditRepository } from '../db/repositories/audit.repository';
import { EventRepository } from '../db/repositories/event.repository';
import { SessionRepository } from '../db/repositories/session.repository';
import { SkillRunRepository } from '../db/repositories/skill-run.repository';
import { TurnRepository } from '../db/repositories/turn.repository';
import { EngineClient } from '../engine/engine.client';
import { AgentService } from './agents/agent.service';
import { AuditService } from './audit/audit.service';
import { DomainBus } from './bus';
import { EventService } from './events/event.service';
import { ProviderRegistry } from './providers/provider.registry';
import { SessionService } from './sessions/session.service';
import { builtinSkills } from './skills/builtin-skills';
import { SkillService } from './skills/skill.service';
import { TurnService } from './turns/turn.service';
import { TurnRunner } from './turns/turn.runner';

/**
 * The assistant domain on a real SQLite file in a temporary folder, for domain tests.
 * (Test support only: the app is composed in app.ts.)
 */
export function testDomain(
  rawConfig: Record<string, unknown> = {},
  dir = mkdtempSync(join(tmpdir(), 'berth-domain-'))
) {
  const database = openDatabase(join(dir, 'berth.db'), resolve('drizzle'));
  const bus = new DomainBus();
  const config = new ConfigStore({ config: parseConfig(rawConfig, {}), file: null }, {});
  const skills = new SkillService(
    new SkillRunRepository(database.db),
    builtinSkills(new EngineClient({ socketPath: '/nonexistent' }))
  );
  const audit = new AuditService(new AuditRepository(database.db), bus);
  const providers = new ProviderRegistry(() => config.current.providers);
  const agents = new AgentService(
    config,
    bus,
    new AgentRepository(database.db),
    skills,
    audit,
    providers
  );
  const sessionRepo = new SessionRepository(database.db);
  const turnRepo = new TurnRepository(database.db);
  const turns = new TurnService(
    turnRepo,
    new TurnRunner(turnRepo, sessionRepo, agents, skills, bus),
    agents,
    bus,
    () => config.current.gateway.turns
  );
  const events = new EventService(new EventRepository(database.db), agents, turns, bus);
  agents.counters = {
    running: (name) => turns.running(name),
    queuedEvents: (name) => events.queuedCount(name),
    lastFailed: (name) => turnRepo.lastFinished(name)?.state === 'failed'
  };
  return {
    dir,
    database,
    bus,
    agents,
    providers,
    skills,
    turns,
    turnRepo,
    events,
    audit,
    sessions: new SessionService(sessionRepo, bus),
    close(removeDir = true) {
      events.stop();
      turns.stop();
      database.close();
      if (removeDir) rmSync(dir, { recursive: true, force: true });
    }
  };
}
