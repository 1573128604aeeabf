import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_RULES, ruleUrl, SWITCHABLE_RULES } from './rules.ts';

describe('rule catalogue', () => {
  it('names every rule the linter emits, once', () => {
    const dir = new URL('../lint/', import.meta.url);
    const emitted = new Set<string>();
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.includes('.test.'))) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      for (const m of text.matchAll(/rule: '([A-Za-z]+)'/g)) emitted.add(m[1]!);
      for (const m of text.matchAll(/^ {2}([A-Z][A-Za-z]+): '[a-z-]+',?$/gm)) emitted.add(m[1]!);
    }
    const known = [...ERROR_RULES, ...SWITCHABLE_RULES.map((r) => r.rule)];
    expect(new Set(known).size).toBe(known.length);
    expect([...emitted].filter((rule) => !known.includes(rule))).toEqual([]);
    expect(known.length).toBeGreaterThanOrEqual(emitted.size);
  });

  it('links BuildKit checks to their page and the rest to the reference or best practices', () => {
    expect(ruleUrl('StageNameCasing', 'https://docs.docker.com/go/dockerfile/rule/x/')).toBe(
      'https://docs.docker.com/go/dockerfile/rule/x/'
    );
    expect(ruleUrl('RootUser')).toContain('best-practices');
    expect(ruleUrl('UnknownFlag')).toBe('https://docs.docker.com/reference/dockerfile/');
  });
});
