import { describe, expect, it } from 'vitest';
import { webhookMappingSchema } from '$lib/contracts/webhooks';
import { preview } from './preview';
import { PRESETS } from './presets';

describe('webhook presets', () => {
  it.each(PRESETS.map((p) => [p.id, p] as const))(
    '%s: a valid mapping whose own sample matches and fills every placeholder',
    (_id, preset) => {
      const mapping = webhookMappingSchema.parse({ match: preset.match, message: preset.message });
      const result = preview(mapping, preset.sample);
      expect(result.conditions.filter((c) => !c.holds)).toEqual([]);
      expect(result.matched).toBe(true);
      // An empty fill would show as a doubled space, "()" or a trailing ": ".
      expect(result.message).not.toMatch(/ {2}|\(\)|: $|""|#:/);
      expect(result.message).not.toContain('{');
    }
  );

  it('each GitHub and GitLab preset picks its event by the sender’s event header', () => {
    for (const p of PRESETS.filter((p) => p.sender !== 'ci')) {
      const header = p.sender === 'github' ? 'headers.x-github-event' : 'headers.x-gitlab-event';
      expect(p.match[header], p.id).toBe(p.sample.headers[header.slice(8)]);
      const other = { ...p.sample, headers: { ...p.sample.headers, [header.slice(8)]: 'ping' } };
      expect(preview({ match: p.match, message: p.message }, other).matched, p.id).toBe(false);
    }
  });

  it('has unique ids and mapping names', () => {
    expect(new Set(PRESETS.map((p) => p.id)).size).toBe(PRESETS.length);
    expect(new Set(PRESETS.map((p) => p.name)).size).toBe(PRESETS.length);
  });
});
