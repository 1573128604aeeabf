import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.loader';
import { describeConfig } from './config.describe';

describe('the configuration in force, described', () => {
  const raw = {
    server: { port: 18789 },
    webhooks: { token: '${HOOK_TOKEN}' },
    gateway: { rest: { apiKeys: [{ name: 'ci', key: 'plain-secret-0123456789', role: 'viewer' }] } }
  };
  const env = { HOOK_TOKEN: 'hook-secret-0123456789', HOST: '127.0.0.1' };
  const rows = describeConfig(parseConfig(raw, env), raw, env);
  const at = (key: string) => rows.find((r) => r.key === key);

  it('says where each value came from', () => {
    expect(at('server.port')).toMatchObject({ source: 'file', value: '18789' });
    expect(at('server.host')).toMatchObject({ source: 'environment', variable: 'HOST' });
    expect(at('webhooks.token')).toMatchObject({ source: 'environment', variable: 'HOOK_TOKEN' });
    expect(at('gateway.rest.apiKeys[0].role')).toMatchObject({ source: 'file', value: '"viewer"' });
    expect(at('database.synchronous')).toMatchObject({ source: 'default', value: '"normal"' });
  });

  it('never shows a secret', () => {
    expect(at('webhooks.token')).toMatchObject({ secret: true, value: '••••••' });
    expect(at('gateway.rest.apiKeys[0].key')).toMatchObject({ secret: true, value: '••••••' });
    const text = JSON.stringify(rows);
    expect(text).not.toContain('hook-secret');
    expect(text).not.toContain('plain-secret');
  });
});
