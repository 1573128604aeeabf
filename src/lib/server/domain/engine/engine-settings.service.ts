import type { EngineAddInput } from '$lib/contracts/engine';
import type { ConsoleEngineRow, EngineRepository } from '../../db/repositories/engine.repository';
import type { EngineConfig, EngineRegistry, EngineSummary } from '../../engine/engine.registry';
import type { TlsFiles, TlsPart } from '../../engine/tls-files';
import { conflict, invalid, notFound } from '../../errors';
import type { AuditService } from '../audit/audit.service';
import type { EngineAccess, EngineActor } from './engine-access';

type Material = { pem: string } | { path: string };
type AddInput = Omit<EngineAddInput, 'port'> & { port: number };

/** What Settings → Engines shows: every engine's health, and how a console one's keys are kept. */
export type EngineSetting = EngineSummary & { keys?: 'stored' | 'server files' };

/**
 * Remote engines added by admins in Settings → Engines, beside berth.yaml's `engines:` (the
 * file's are read-only and win a name clash). Uploaded PEM goes to 0600 files, the table keeps
 * paths only, and nothing here returns or audits key material or its paths.
 */
export class EngineSettingsService {
  constructor(
    private readonly repo: EngineRepository,
    private readonly registry: EngineRegistry,
    private readonly files: TlsFiles,
    private readonly access: EngineAccess,
    private readonly audit: AuditService
  ) {
    for (const row of repo.list()) registry.add(toConfig(row));
  }

  async list(actor: EngineActor): Promise<EngineSetting[]> {
    this.access.require(actor, 'admin', 'manage engines');
    const rows = new Map(this.repo.list().map((r) => [r.name, r]));
    return (await this.registry.health()).map((summary) => {
      const row = summary.source === 'console' ? rows.get(summary.name) : undefined;
      return row ? { ...summary, keys: row.uploaded ? 'stored' : 'server files' } : summary;
    });
  }

  /** Adds the engine to the registry at once and answers with its first health check. */
  async add(actor: EngineActor, input: AddInput): Promise<EngineSetting> {
    this.access.require(actor, 'admin', 'manage engines');
    const { name } = input;
    const source = this.registry.sourceOf(name);
    if (source === 'config') throw conflict(`berth.yaml already defines an engine named ${name}`);
    if (source || this.repo.get(name)) throw conflict(`an engine named ${name} already exists`);
    const parts = { ca: input.ca, cert: input.cert, key: input.key };
    const uploaded = Object.values(parts).some((m) => m && 'pem' in m);
    if (uploaded && Object.values(parts).some((m) => m && 'path' in m))
      throw invalid('give the CA, certificate and key all as uploads or all as server paths');
    const place = (part: TlsPart, m: Material | undefined) =>
      m === undefined ? null : 'pem' in m ? this.files.write(name, part, m.pem) : m.path;
    const row: ConsoleEngineRow = {
      name,
      host: input.host,
      port: input.port,
      caFile: place('ca', input.ca),
      certFile: place('cert', input.cert) as string,
      keyFile: place('key', input.key) as string,
      uploaded,
      createdBy: actor.id,
      createdAt: Date.now()
    };
    try {
      this.repo.insert(row);
    } catch (err) {
      if (uploaded) this.files.remove(name);
      throw err;
    }
    this.registry.add(toConfig(row));
    this.audit.record(actor, 'engine.settings.add', name, {
      host: row.host,
      port: row.port,
      keys: uploaded ? 'uploaded' : 'server files'
    });
    const settings = await this.list(actor);
    return settings.find((s) => s.name === name) as EngineSetting;
  }

  remove(actor: EngineActor, input: { name: string }): { removed: string } {
    this.access.require(actor, 'admin', 'manage engines');
    const row = this.repo.get(input.name);
    if (!row) {
      if (this.registry.sourceOf(input.name) === 'config')
        throw invalid(`engine ${input.name} comes from berth.yaml: remove it there`);
      throw notFound(`engine ${input.name}`);
    }
    this.repo.delete(row.name);
    if (row.uploaded) this.files.remove(row.name);
    this.registry.remove(row.name);
    this.audit.record(actor, 'engine.settings.remove', row.name, {
      host: row.host,
      port: row.port
    });
    return { removed: row.name };
  }
}

function toConfig(row: ConsoleEngineRow): EngineConfig {
  return {
    name: row.name,
    host: row.host,
    port: row.port,
    tls: { ca: row.caFile ?? undefined, cert: row.certFile, key: row.keyFile }
  };
}
