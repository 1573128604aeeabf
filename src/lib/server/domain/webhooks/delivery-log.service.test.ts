import { afterEach, describe, expect, it } from 'vitest';
import { testDomain } from '../testing';
import {
  DELIVERY_MAX_ROWS,
  DELIVERY_RETENTION_MS,
  PAYLOAD_CAP_BYTES
} from './delivery-log.service';
import type { WebhookActor } from './webhook-actor';

const viewer: WebhookActor = { id: 'u1', email: 'v@example.com', ip: null, role: 'viewer' };
const report = (n: number, extra: Record<string, unknown> = {}) => ({
  receivedAt: Date.now(),
  kind: 'wake' as const,
  mapping: 'wake',
  status: 200,
  matched: null,
  durationMs: 1,
  body: { n },
  headers: {},
  ...extra
});

describe('DeliveryLogService', () => {
  let domain: ReturnType<typeof testDomain>;
  afterEach(() => domain.close());

  it('cuts a payload at 64 KiB on a character boundary and marks it', () => {
    domain = testDomain();
    const log = domain.webhooks.deliveries;
    log.record(report(1, { body: { text: 'é'.repeat(PAYLOAD_CAP_BYTES) } }));
    const [row] = log.list(viewer, {});
    const detail = log.get(viewer, row!.id);
    expect(detail.payloadTruncated).toBe(true);
    expect(new TextEncoder().encode(detail.payload!).length).toBeLessThanOrEqual(PAYLOAD_CAP_BYTES);
    expect(detail.payload).toMatch(/^\{"text":"é+$/);
  });

  it('keeps no header named like a secret', () => {
    domain = testDomain();
    const log = domain.webhooks.deliveries;
    log.record(
      report(1, {
        headers: {
          Authorization: 'Bearer x',
          'X-Gateway-Token': 't',
          'x-api-key': 'k',
          'x-hub-signature-256': 's',
          cookie: 'c',
          'x-github-event': ['push', 'ping']
        }
      })
    );
    const detail = log.get(viewer, log.list(viewer, {})[0]!.id);
    expect(detail.headers).toEqual({ 'x-github-event': 'push, ping' });
    // A request that never reached a mapping is neither matched nor ignored.
    expect(detail.matched).toBeNull();
  });

  it('keeps the newest 10,000 in a ring and clears rows past the retention', () => {
    domain = testDomain();
    const log = domain.webhooks.deliveries;
    const count = () =>
      (
        domain.database.sqlite.prepare('select count(*) n from webhook_deliveries').get() as {
          n: number;
        }
      ).n;
    const now = Date.now();
    const old = log.record(report(0, { receivedAt: now - DELIVERY_RETENTION_MS - 1 }));
    log.record(report(1));
    log.flush();
    log.prune(now);
    expect(() => log.get(viewer, old)).toThrow(/not found/);
    expect(count()).toBe(1);

    for (let n = 2; n <= DELIVERY_MAX_ROWS + 5; n++) log.record(report(n));
    log.flush();
    expect(count()).toBe(DELIVERY_MAX_ROWS);
    const page = log.list(viewer, { limit: 2 });
    expect(page.map((d) => log.get(viewer, d.id).payload)).toEqual([
      `{"n":${DELIVERY_MAX_ROWS + 5}}`,
      `{"n":${DELIVERY_MAX_ROWS + 4}}`
    ]);
    const oldest = domain.database.sqlite
      .prepare('select id, payload from webhook_deliveries order by id limit 1')
      .get() as { id: number; payload: string };
    expect(oldest.payload).toBe('{"n":6}');
    // The slot of a delivery 10,000 older now holds a newer one: the old id is gone.
    expect(() => log.get(viewer, oldest.id - 1)).toThrow(/not found/);
  });

  // Written 32 to a statement, the rest one by one: every field lands in its own row.
  it('writes each field of a batch to its own delivery', () => {
    domain = testDomain();
    const log = domain.webhooks.deliveries;
    const ids = Array.from({ length: 33 }, (_, n) =>
      log.record(
        report(n, {
          status: 400 + n,
          durationMs: n,
          eventId: `e${n}`,
          headers: { 'x-n': String(n) },
          error: `error ${n}`
        })
      )
    );
    log.flush();
    ids.forEach((id, n) => {
      expect(log.get(viewer, id)).toMatchObject({
        status: 400 + n,
        durationMs: n,
        eventId: `e${n}`,
        payload: `{"n":${n}}`,
        headers: { 'x-n': String(n) },
        error: `error ${n}`
      });
    });
  });

  it('refuses a viewer a re-run', () => {
    domain = testDomain();
    expect(() => domain.webhooks.deliveries.rerun(viewer, 1)).toThrow(/operator/);
  });
});
