import { describe, expect, it } from 'vitest';
import { CAPTURE_TTL_MS, WebhookCaptureService } from './webhook-capture.service';
import type { AuditService } from '../audit/audit.service';

const audit = { record: () => undefined } as unknown as AuditService;
const ada = { id: 'u1', email: 'ada@example.com', ip: null, role: 'operator' as const };

describe('WebhookCaptureService', () => {
  it('expires after 15 minutes: the endpoint 404s and the payload is gone', () => {
    let now = 1_000_000;
    const captures = new WebhookCaptureService(audit, () => now);
    const { id, token } = captures.open(ada);
    captures.receive(id, token, { 'x-a': '1' }, { n: 1 });
    expect(captures.status(ada, id).delivery?.body).toEqual({ n: 1 });
    now += CAPTURE_TTL_MS;
    expect(() => captures.status(ada, id)).toThrow(/not found/);
    const late = captures.open(ada);
    now += CAPTURE_TTL_MS + 1;
    expect(() => captures.receive(late.id, late.token, {}, {})).toThrow(/not found/);
    captures.stop();
  });

  it('refuses a wrong token before anything else, and a second delivery', () => {
    const captures = new WebhookCaptureService(audit);
    const { id, token } = captures.open(ada);
    expect(() => captures.receive(id, 'bwc_wrong', {}, {})).toThrow(/Invalid token/);
    expect(() => captures.receive(id, null, {}, {})).toThrow(/Missing token/);
    captures.receive(id, token, { authorization: `Bearer ${token}`, 'x-api-key': 'k' }, {});
    expect(captures.status(ada, id).delivery?.headers).toEqual({});
    expect(() => captures.receive(id, token, {}, {})).toThrow(/not found/);
    expect(() => captures.status({ ...ada, id: 'u2' }, id)).toThrow(/not found/);
    expect(() => captures.open({ ...ada, role: 'viewer' })).toThrow(/operator/);
    captures.stop();
  });

  it('tells its watchers the delivery the moment it arrives, and the end (closed or expired)', () => {
    let now = 1_000_000;
    const captures = new WebhookCaptureService(audit, () => now);
    const told: string[] = [];
    const watcher = () => ({
      delivered: (d: { body: unknown }) => told.push(`delivered ${JSON.stringify(d.body)}`),
      ended: (reason: string) => told.push(`ended ${reason}`)
    });
    const a = captures.open(ada);
    expect(captures.ownerOf(a.id)).toBe('u1');
    captures.watch(a.id, watcher());
    captures.receive(a.id, a.token, {}, { n: 1 });
    // A late watcher gets the delivery that already arrived.
    const off = captures.watch(a.id, watcher());
    off();
    captures.close(ada, a.id);
    expect(told).toEqual(['delivered {"n":1}', 'delivered {"n":1}', 'ended closed']);

    told.length = 0;
    const b = captures.open(ada);
    captures.watch(b.id, watcher());
    now += CAPTURE_TTL_MS;
    expect(captures.ownerOf(b.id)).toBeNull();
    captures.watch(b.id, watcher());
    expect(told).toEqual(['ended expired', 'ended expired']);
    captures.stop();
  });
});
