import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../outbound/address-policy';
import { renderBody, renderUrl } from './http-template';
import { paramEnv, splitReference } from './container-runner';

describe('http skill address policy', () => {
  it('refuses loopback, private, link-local, unique-local, unspecified and mapped addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '64:ff9b::a00:1',
      'not-an-address'
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(a), a).toBe(false);
  });
});

describe('http skill templates', () => {
  it('percent-encodes url params, so a value cannot add a path, a query or a host', () => {
    expect(
      renderUrl('https://x.example/a/{params.id}?q={params.q}', { id: '../b', q: 'a&b' })
    ).toBe('https://x.example/a/..%2Fb?q=a%26b');
  });

  it('JSON-escapes strings inside quotes and puts other values in as JSON', () => {
    const body = renderBody(
      '{"t": "{params.t}", "n": {params.n}, "o": {params.o}, "m": {params.missing}}',
      { t: 'say "hi"\n', n: 3, o: { a: [1] } },
      true
    );
    expect(JSON.parse(body)).toEqual({ t: 'say "hi"\n', n: 3, o: { a: [1] }, m: null });
    expect(renderBody('name={params.t}', { t: 'a b' }, false)).toBe('name=a b');
  });

  it('names container env variables PARAM_<NAME>, non-strings as JSON', () => {
    expect(paramEnv({ text: 'hi there', count: 2, 'my-list': ['a'] })).toEqual([
      'PARAM_TEXT=hi there',
      'PARAM_COUNT=2',
      'PARAM_MY_LIST=["a"]'
    ]);
  });

  it("splits a container skill's image into the pull's name and tag or digest", () => {
    expect(splitReference('busybox')).toEqual({ name: 'busybox', tag: 'latest' });
    expect(splitReference('registry.example/tools/shout:1.2')).toEqual({
      name: 'registry.example/tools/shout',
      tag: '1.2'
    });
    expect(splitReference('127.0.0.1:5000/tools/shout')).toEqual({
      name: '127.0.0.1:5000/tools/shout',
      tag: 'latest'
    });
    expect(splitReference(`127.0.0.1:5000/shout@sha256:${'a'.repeat(64)}`)).toEqual({
      name: '127.0.0.1:5000/shout',
      tag: `sha256:${'a'.repeat(64)}`
    });
  });
});
