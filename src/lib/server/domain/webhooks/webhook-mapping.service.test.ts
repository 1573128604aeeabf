import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/config.loader';
import { testDomain } from '../testing';
import type { WebhookActor } from './webhook-actor';

const actor = (role: WebhookActor['role']): WebhookActor => ({
  id: role,
  email: `${role}@example.com`,
  ip: null,
  role
});
const FILE = { webhooks: { mappings: { ci: { message: 'From the file: {body.x}' } } } };

describe('WebhookMappingService', () => {
  let domain: ReturnType<typeof testDomain>;
  afterEach(() => domain.close());

  it('checks roles in the domain: viewers read, operators change', () => {
    domain = testDomain(FILE);
    const { mappings } = domain.webhooks;
    expect(mappings.list(actor('viewer')).map((m) => m.name)).toEqual(['ci']);
    expect(() => mappings.create({ name: 'x', message: 'm' }, actor('viewer'))).toThrow(/operator/);
    mappings.create({ name: 'x', message: 'm' }, actor('operator'));
    expect(() => mappings.delete('x', actor('viewer'))).toThrow(/operator/);
  });

  it('names the field at fault', () => {
    domain = testDomain();
    const op = actor('operator');
    const { mappings } = domain.webhooks;
    expect(() => mappings.create({ name: 'x', message: '' }, op)).toThrow(
      'message: must not be empty'
    );
    expect(() => mappings.create({ name: 'x', message: 'm', match: { 'x.y': 1 } }, op)).toThrow(
      'match.x.y: must start with headers. or body.'
    );
    expect(() => mappings.create({ name: 'a b', message: 'm' }, op)).toThrow(/^name: /);
  });

  it("lets the file's mapping win after a reload, keeping the console row as shadowed", () => {
    domain = testDomain();
    const op = actor('operator');
    const { mappings } = domain.webhooks;
    mappings.create({ name: 'ci', message: 'console' }, op);
    expect(mappings.find('ci')).toMatchObject({ source: 'database' });
    mappings.apply(parseConfig(FILE, {}));
    expect(mappings.find('ci')).toMatchObject({ source: 'file' });
    expect(mappings.list(op).map((m) => [m.source, m.shadowed])).toEqual([
      ['file', false],
      ['database', true]
    ]);
    expect(() => mappings.update({ name: 'ci', message: 'y' }, op)).toThrow(/which wins/);
    mappings.delete('ci', op);
    expect(mappings.find('ci')).toMatchObject({ source: 'file' });
    expect(() => mappings.delete('ci', op)).toThrow(/config file/);
  });

  it('ignores a delivery whose conditions fail and queues a rendered turn when they hold', () => {
    domain = testDomain();
    const { mappings } = domain.webhooks;
    mappings.create(
      { name: 'push', match: { 'headers.x-event': 'push' }, message: 'Push {body.ref}' },
      actor('operator')
    );
    const active = mappings.find('push')!;
    expect(mappings.deliver(active, { ref: 'main' }, { 'x-event': 'ping' })).toEqual({
      kind: 'ignored'
    });
    const queued = mappings.deliver(active, { ref: 'main' }, { 'x-event': 'push' });
    expect(queued).toMatchObject({ kind: 'queued', agentName: 'main' });
  });
});

describe('WebhookTokenService', () => {
  let domain: ReturnType<typeof testDomain>;
  afterEach(() => domain.close());

  it('admins only; the file token and console tokens authenticate; rotate and revoke stop the old', () => {
    domain = testDomain({ webhooks: { token: 'file-token-0123456789abcdef' } });
    const { tokens } = domain.webhooks;
    expect(() => tokens.create('ci', actor('operator'))).toThrow(/admin/);
    const created = tokens.create('ci', actor('admin'));
    expect(tokens.authenticate('file-token-0123456789abcdef')).toBe('webhooks.token');
    expect(tokens.authenticate(created.token)).toBe('ci');
    expect(tokens.list(actor('admin'))[1]!.lastUsedAt).toEqual(expect.any(Number));
    const rotated = tokens.rotate(created.id, actor('admin'));
    expect(tokens.authenticate(created.token)).toBeNull();
    expect(tokens.authenticate(rotated.token)).toBe('ci');
    tokens.revoke(created.id, actor('admin'));
    expect(tokens.authenticate(rotated.token)).toBeNull();
    expect(() => tokens.create('ci', actor('admin'))).toThrow(/revoked/);
  });

  it('a signing token verifies GitHub signatures of its secret, through rotate, until revoked', () => {
    domain = testDomain();
    const { tokens } = domain.webhooks;
    const sign = (secret: string, body: Buffer) =>
      createHmac('sha256', secret).update(body).digest();
    const body = Buffer.from('{"ref":"refs/heads/main"}');
    const plain = tokens.create('plain', actor('admin'));
    const signing = tokens.create('github', actor('admin'), true);
    expect(signing.signing).toBe(true);
    expect(tokens.authenticateSignature(sign(signing.token, body), body)).toBe('github');
    expect(tokens.authenticateSignature(sign(plain.token, body), body)).toBeNull();
    expect(tokens.authenticateSignature(sign(signing.token, body), Buffer.from('{}'))).toBeNull();
    expect(tokens.authenticateSignature(Buffer.alloc(0), body)).toBeNull();
    const views = tokens.list(actor('admin'));
    expect(views.map((v) => [v.name, v.signing])).toEqual([
      ['plain', false],
      ['github', true]
    ]);
    expect(JSON.stringify(views)).not.toContain(signing.token.slice(8));
    expect(views[1]!.lastUsedAt).toEqual(expect.any(Number));
    const rotated = tokens.rotate(signing.id, actor('admin'));
    expect(rotated.signing).toBe(true);
    expect(tokens.authenticateSignature(sign(signing.token, body), body)).toBeNull();
    expect(tokens.authenticateSignature(sign(rotated.token, body), body)).toBe('github');
    tokens.revoke(signing.id, actor('admin'));
    expect(tokens.authenticateSignature(sign(rotated.token, body), body)).toBeNull();
  });
});
