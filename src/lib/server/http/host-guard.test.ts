import { describe, expect, it } from 'vitest';
import { isLoopbackAddress } from '../loopback';
import { createHostGuard, createOriginGuard, hostnameOf } from './host-guard';

describe('host guard', () => {
  it('accepts loopback names and the origin host, refuses the rest', () => {
    const guard = createHostGuard('https://berth.example.com');
    for (const ok of [
      'localhost:18789',
      '127.0.0.1',
      '127.1.2.3:80',
      '[::1]:18789',
      'berth.example.com',
      'BERTH.example.com:443',
      'app.localhost'
    ])
      expect(guard(ok), ok).toBe(true);
    for (const bad of [
      undefined,
      '',
      'evil.example',
      'berth.example.com.evil.test',
      '128.0.0.1',
      '[::2]'
    ])
      expect(guard(bad), String(bad)).toBe(false);
  });

  it('without ORIGIN only loopback names pass', () => {
    const guard = createHostGuard(undefined);
    expect(guard('localhost')).toBe(true);
    expect(guard('192.168.1.5:18789')).toBe(false);
  });

  it('splits host and port, IPv6 included', () => {
    expect(hostnameOf('[::1]:80')).toBe('[::1]');
    expect(hostnameOf('a.b:1')).toBe('a.b');
    expect(hostnameOf('a.b')).toBe('a.b');
  });

  it('knows loopback client addresses', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('10.0.0.1')).toBe(false);
    expect(isLoopbackAddress('::ffff:10.0.0.1')).toBe(false);
    expect(isLoopbackAddress(undefined)).toBe(false);
  });

  it('an Origin must be our own', () => {
    const withOrigin = createOriginGuard('https://berth.example.com');
    expect(withOrigin('https://berth.example.com', 'berth.example.com')).toBe(true);
    expect(withOrigin('http://berth.example.com', 'berth.example.com')).toBe(false);
    expect(withOrigin('http://localhost:18789', 'localhost:18789')).toBe(true);
    expect(withOrigin('https://evil.example', 'berth.example.com')).toBe(false);
    const local = createOriginGuard(undefined);
    expect(local('http://127.0.0.1:18789', '127.0.0.1:18789')).toBe(true);
    expect(local('http://127.0.0.1:9999', '127.0.0.1:18789')).toBe(false);
    expect(local('null', '127.0.0.1:18789')).toBe(false);
    expect(local(undefined, '127.0.0.1:18789')).toBe(false);
  });
});
