import { describe, expect, it } from 'vitest';
import { mappingMatches } from './match';

const source = {
  headers: { 'x-github-event': 'push' },
  body: { ref: 'refs/heads/main', n: 3, tags: ['a'], repo: { private: false } }
};

describe('mappingMatches', () => {
  it('holds when every condition holds', () => {
    expect(
      mappingMatches({ 'headers.x-github-event': 'push', 'body.ref': 'refs/heads/main' }, source)
    ).toBe(true);
    expect(mappingMatches({}, source)).toBe(true);
    expect(mappingMatches({ 'body.n': '3', 'body.repo.private': false }, source)).toBe(true);
    expect(mappingMatches({ 'body.tags': ['a'] }, source)).toBe(true);
  });

  it('fails when any condition fails or its value is missing', () => {
    expect(mappingMatches({ 'headers.x-github-event': 'push', 'body.ref': 'x' }, source)).toBe(
      false
    );
    expect(mappingMatches({ 'body.missing': '' }, source)).toBe(false);
    expect(mappingMatches({ 'body.constructor': 'Object' }, source)).toBe(false);
    expect(mappingMatches({ 'body.repo': 'x' }, source)).toBe(false);
  });
});
