import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, diffConfig, loadConfig, parseConfig } from './config.loader';
import { ConfigStore } from './config.store';

describe('configuration', () => {
  it('has the product defaults when no file exists', () => {
    const config = parseConfig({}, {});
    expect(config.server).toEqual({ host: '127.0.0.1', port: 18789 });
    expect(config.webhooks).toMatchObject({
      enabled: false,
      path: '/hooks',
      rateLimit: { maxRequests: 100, windowMs: 60000 }
    });
    expect(config.gateway.rpc).toEqual({
      enabled: true,
      auth: { type: 'bearer', tokens: [] },
      ws: { maxConnections: 1000, maxPending: 100, maxPendingPerAddress: 10, authTimeoutMs: 2000 }
    });
    expect(config.gateway.rest).toEqual({ apiKeys: [], waitMs: 60_000, skillWaitMs: 30_000 });
    expect(config.gateway.turns).toEqual({
      maxRunning: 8,
      maxRunningPerAgent: 2,
      maxQueuedPerAgent: 1000
    });
    expect(config.agents.map((a) => a.name)).toEqual(['main']);
    expect(config.database).toEqual({ synchronous: 'normal' });
  });

  it('takes database.synchronous normal or full, and names anything else', () => {
    expect(parseConfig({ database: { synchronous: 'full' } }, {}).database.synchronous).toBe(
      'full'
    );
    expect(() => parseConfig({ database: { synchronous: 'off' } }, {})).toThrow(
      /database\.synchronous/
    );
  });

  it('reads the spec keys verbatim and expands ${NAME} from the environment', () => {
    const config = parseConfig(
      {
        gateway: {
          rpc: {
            auth: {
              type: 'bearer',
              tokens: [{ name: 'ops', token: '${RPC_OPS}', permissions: ['*'] }]
            }
          }
        },
        webhooks: {
          enabled: true,
          token: 'prefix-${HOOK}',
          mappings: {
            push: { match: { 'headers.x-github-event': 'push' }, message: 'hi {body.a}' }
          }
        }
      },
      { RPC_OPS: 'a'.repeat(20), HOOK: 'b'.repeat(20) }
    );
    expect(config.gateway.rpc.auth.tokens[0]?.token).toBe('a'.repeat(20));
    expect(config.webhooks.token).toBe(`prefix-${'b'.repeat(20)}`);
    expect(config.webhooks.mappings.push?.delivery).toBe('announce');
  });

  it('names the key path of every problem', () => {
    const attempt = () =>
      parseConfig(
        {
          server: { port: 'eighty' },
          webhooks: { rateLimit: { windowMs: 5 }, extra: 1 },
          gateway: { rest: { waitMs: -1, skillWaitMs: 1.5 } },
          agents: [{ name: 'bad name!' }]
        },
        {}
      );
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (err) {
      const issues = (err as ConfigError).issues.join('\n');
      expect(issues).toContain('server.port:');
      expect(issues).toContain('webhooks.rateLimit.windowMs:');
      expect(issues).toContain('webhooks.extra: unknown key');
      expect(issues).toContain('gateway.rest.waitMs:');
      expect(issues).toContain('gateway.rest.skillWaitMs:');
      expect(issues).toContain('agents[0].name:');
    }
  });

  it('refuses mapping conditions and keys that name a prototype, with their key path', () => {
    const issuesOf = (raw: unknown) => {
      try {
        parseConfig(raw, {});
      } catch (err) {
        return (err as ConfigError).issues;
      }
      throw new Error('accepted');
    };
    const hooks = (match: Record<string, unknown>) => ({
      webhooks: { mappings: { push: { match, message: 'hi' } } }
    });
    for (const key of [
      'body.__proto__.x',
      'body.a.constructor',
      'body.prototype',
      'body.a[0].__proto__'
    ])
      expect(issuesOf(hooks({ [key]: 1 }))).toEqual([
        `webhooks.mappings.push.match.${key}: must not name __proto__, prototype or constructor (a condition there could never hold)`
      ]);
    expect(issuesOf(hooks({ 'query.x': 1 }))).toEqual([
      'webhooks.mappings.push.match.query.x: must start with headers. or body.'
    ]);
    // As YAML parses it: an own `__proto__` key, which a plain copy would drop silently.
    const raw = JSON.parse('{"webhooks":{"mappings":{"__proto__":{"message":"x"}}}}') as unknown;
    expect(issuesOf(raw)).toEqual(['webhooks.mappings.__proto__: reserved key']);
    expect(parseConfig(hooks({ 'body.proto.x': 1, 'body.constructors': 2 }), {})).toBeTruthy();
  });

  it('defaults webhook overrides to webhook: sessions and no model; refuses an empty prefix', () => {
    expect(parseConfig({}, {}).webhooks).toMatchObject({
      allowedSessionPrefixes: ['webhook:'],
      allowedModels: []
    });
    expect(() => parseConfig({ webhooks: { allowedSessionPrefixes: [''] } }, {})).toThrow(
      /webhooks\.allowedSessionPrefixes\[0\]: must not be empty/
    );
    expect(parseConfig({}, {}).gateway.authThrottle).toEqual({ maxFailures: 20, windowMs: 60_000 });
  });

  it('HOST and PORT override the file', () => {
    expect(parseConfig({ server: { port: 1 } }, { HOST: '::1', PORT: '9999' }).server).toEqual({
      host: '::1',
      port: 9999
    });
    expect(() => parseConfig({}, { PORT: 'abc' })).toThrow(/server\.port/);
  });

  it('reports invalid YAML with the file name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-cfg-'));
    const file = join(dir, 'berth.yaml');
    writeFileSync(file, 'server: [unclosed');
    expect(() => loadConfig({ BERTH_CONFIG: file })).toThrow(/invalid YAML/);
  });

  it('a reload keeps the old configuration when the new file is invalid, and reports changes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-cfg-'));
    const file = join(dir, 'berth.yaml');
    writeFileSync(file, 'webhooks:\n  path: /hooks\n');
    const env = { BERTH_CONFIG: file };
    const store = new ConfigStore(loadConfig(env), env);
    writeFileSync(file, 'webhooks:\n  path: no-slash\n');
    const bad = store.reload();
    expect(bad).toMatchObject({ ok: false });
    expect(!bad.ok && bad.error).toContain('webhooks.path');
    expect(store.current.webhooks.path).toBe('/hooks');
    writeFileSync(file, 'webhooks:\n  path: /in\n  enabled: false\n');
    const good = store.reload();
    expect(good).toEqual({ ok: true, changes: ['webhooks.path'] });
    expect(store.current.webhooks.path).toBe('/in');
  });

  it('diffs down to the second level', () => {
    const a = parseConfig({}, {});
    const b = parseConfig({ server: { port: 1 }, agents: [{ name: 'x' }] }, {});
    expect(diffConfig(a, b)).toEqual(['server.port', 'agents']);
  });
});
