import { describe, expect, it } from 'vitest';
import { auditDetailPairs, auditMatches, type AuditEntry } from './audit';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: 1,
  at: 0,
  actorId: null,
  actorEmail: 'ada@example.com',
  action: 'user.role',
  target: 'ole@example.com',
  detail: { role: 'viewer' },
  ip: null,
  ...over
});

describe('audit entries in the console', () => {
  it('matches a kind, an action and text as the server filters', () => {
    expect(auditMatches(entry({}), {})).toBe(true);
    expect(auditMatches(entry({}), { action: 'user' })).toBe(true);
    expect(auditMatches(entry({}), { action: 'user.role' })).toBe(true);
    expect(auditMatches(entry({}), { action: 'use' })).toBe(false);
    expect(auditMatches(entry({}), { action: 'agent' })).toBe(false);
    expect(auditMatches(entry({}), { search: 'VIEWER' })).toBe(true);
    expect(auditMatches(entry({}), { search: 'ole@' })).toBe(true);
    expect(auditMatches(entry({}), { search: 'nobody' })).toBe(false);
  });

  it('shows details as pairs, leaving out what says nothing', () => {
    expect(
      auditDetailPairs({ model: null, skills: [], role: 'admin', ids: ['a', 'b'], n: 3 })
    ).toEqual([
      ['role', 'admin'],
      ['ids', 'a, b'],
      ['n', '3']
    ]);
    expect(auditDetailPairs(null)).toEqual([]);
  });
});
