import { describe, expect, it } from 'vitest';
import { isSecretHeader, templateHeaders } from './headers';
import { preview } from './preview';

const push = {
  headers: { 'X-GitHub-Event': 'push', Authorization: 'Bearer secret-value' },
  body: { ref: 'refs/heads/main', repository: { full_name: 'acme/api' }, commits: [{ id: 'c1' }] }
};

describe('preview', () => {
  it('says which conditions hold and renders the message', () => {
    const result = preview(
      {
        match: { 'headers.x-github-event': 'push', 'body.ref': 'refs/heads/dev' },
        message: 'Push to {body.repository.full_name} ({body.commits[0].id})'
      },
      push
    );
    expect(result.conditions).toEqual([
      { reference: 'headers.x-github-event', expected: 'push', actual: 'push', holds: true },
      {
        reference: 'body.ref',
        expected: 'refs/heads/dev',
        actual: 'refs/heads/main',
        holds: false
      }
    ]);
    expect(result.matched).toBe(false);
    expect(result.message).toBe('Push to acme/api (c1)');
  });

  it('matches with no conditions and never shows a credential header to a template', () => {
    const result = preview({ match: {}, message: '[{headers.authorization}]' }, push);
    expect(result).toEqual({ conditions: [], matched: true, message: '[]' });
    const held = preview(
      { match: { 'headers.authorization': 'Bearer secret-value' }, message: 'x' },
      push
    );
    expect(held.matched).toBe(false);
    expect(held.conditions[0]!.actual).toBeUndefined();
  });
});

describe('headers', () => {
  it('lower-cases names and drops credentials for templates', () => {
    const headers = templateHeaders({
      'X-A': '1',
      Cookie: 'c',
      'x-gateway-token': 't',
      'x-b': undefined
    });
    expect({ ...headers }).toEqual({ 'x-a': '1' });
  });

  it('names secrets by their header names', () => {
    for (const name of [
      'Authorization',
      'x-gateway-token',
      'cookie',
      'X-Hub-Signature-256',
      'x-api-key',
      'x-webhook-secret'
    ])
      expect(isSecretHeader(name), name).toBe(true);
    for (const name of ['x-github-event', 'content-type', 'user-agent'])
      expect(isSecretHeader(name), name).toBe(false);
  });
});
