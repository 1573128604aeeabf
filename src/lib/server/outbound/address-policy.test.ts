import { describe, expect, it } from 'vitest';
import { blockedKind } from './address-policy';

describe('outbound address policy', () => {
  it('refuses loopback, private, link-local and mapped forms of them', () => {
    expect(blockedKind('127.0.0.1')).toBe('loopback');
    expect(blockedKind('::1')).toBe('loopback');
    expect(blockedKind('::ffff:127.0.0.1')).toBe('loopback');
    expect(blockedKind('10.1.2.3')).toBe('private');
    expect(blockedKind('172.31.255.255')).toBe('private');
    expect(blockedKind('192.168.0.10')).toBe('private');
    expect(blockedKind('169.254.169.254')).toBe('link-local');
    expect(blockedKind('fe80::1')).toBe('link-local');
    expect(blockedKind('fd12::1')).toBe('private (unique-local)');
    expect(blockedKind('0.0.0.0')).toBe('unspecified');
    // The ranges the http skills' own list had (one list serves both now).
    expect(blockedKind('198.18.0.1')).toBe('reserved (benchmarking)');
    expect(blockedKind('192.0.0.8')).toBe('reserved (IETF protocol assignments)');
    expect(blockedKind('64:ff9b::7f00:1')).toBe('NAT64 (an embedded IPv4 address)');
    expect(blockedKind('2002:7f00:1::')).toBe('6to4 (an embedded IPv4 address)');
    expect(blockedKind('localhost')).toBe('not an IP address');
  });

  it('lets public addresses through', () => {
    expect(blockedKind('93.184.216.34')).toBeNull();
    expect(blockedKind('172.32.0.1')).toBeNull();
    expect(blockedKind('2606:4700::1111')).toBeNull();
  });
});
