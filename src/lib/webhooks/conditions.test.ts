import { describe, expect, it } from 'vitest';
import { formatConditions, parseConditions } from './conditions';

describe('mapping conditions in the form', () => {
  it('reads one reference = value per line, JSON values as values, the rest as text', () => {
    expect(
      parseConditions('headers.x-github-event = push\n\nbody.ref = refs/heads/main\nbody.n = 3')
    ).toEqual({
      match: { 'headers.x-github-event': 'push', 'body.ref': 'refs/heads/main', 'body.n': 3 },
      problems: []
    });
    expect(parseConditions('no equals sign').problems).toEqual(['line 1: write reference = value']);
  });

  it('writes them back the same way', () => {
    const match = { 'body.ref': 'refs/heads/main', 'body.n': 3, 'body.ok': true };
    expect(parseConditions(formatConditions(match)).match).toEqual(match);
  });
});
