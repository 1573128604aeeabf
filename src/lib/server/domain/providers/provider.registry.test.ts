import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { BerthConfig } from '../../config/config.schema';
import { BuiltinProvider } from './builtin.provider';
import type { Provider, ProviderChunk } from './provider';
import { ProviderRegistry, type ProviderSettings } from './provider.registry';

/** The schema's defaults of an openai entry. */
const DEFAULTS = { timeoutMs: 60_000, maxAttempts: 3, maxToolCalls: 8 };

/** A provider that says which settings built it. */
class SettingsProvider implements Provider {
  readonly name = 'settings';
  constructor(readonly settings: ProviderSettings | null) {}
  run(): AsyncIterable<ProviderChunk> {
    const text = this.settings?.baseUrl ?? '';
    return Readable.from([{ type: 'done', text, usage: { prompt: 0, completion: 0 } }]);
  }
}

const refusal = (registry: ProviderRegistry, name: string) => {
  try {
    registry.resolve(name);
  } catch (err) {
    return `${(err as { code: string }).code}: ${(err as Error).message}`;
  }
  return 'resolved';
};

describe('ProviderRegistry', () => {
  it('has builtin from the start, built once', () => {
    const registry = new ProviderRegistry(() => ({}));
    expect(registry.names()).toEqual(['builtin']);
    expect(registry.has('builtin')).toBe(true);
    const builtin = registry.resolve('builtin');
    expect(builtin).toBeInstanceOf(BuiltinProvider);
    expect(registry.resolve('builtin')).toBe(builtin);
  });

  it('refuses an unknown name, naming it', () => {
    const registry = new ProviderRegistry(() => ({}));
    expect(registry.has('gpt')).toBe(false);
    expect(refusal(registry, 'gpt')).toBe(
      'INVALID: Provider gpt is not available: it is neither registered nor declared under providers: in the config'
    );
  });

  it('builds a providers: entry with the factory of its type, again when the entry changes', () => {
    let declared: BerthConfig['providers'] = {
      local: { ...DEFAULTS, type: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' }
    };
    const registry = new ProviderRegistry(() => declared);
    expect(registry.has('local')).toBe(false);
    expect(refusal(registry, 'local')).toBe(
      'INVALID: Provider local is not available: providers.local has type openai, and no provider of that type is registered'
    );

    registry.register('openai', (settings) => new SettingsProvider(settings));
    expect(registry.has('local')).toBe(true);
    const first = registry.resolve('local') as SettingsProvider;
    expect(first.settings).toEqual({
      ...DEFAULTS,
      type: 'openai',
      baseUrl: 'http://127.0.0.1:11434/v1'
    });
    expect(registry.resolve('local')).toBe(first);

    // A reload brings a new entry: the next turn gets a provider built from it.
    declared = { local: { ...DEFAULTS, type: 'openai', baseUrl: 'http://127.0.0.1:8080/v1' } };
    const second = registry.resolve('local') as SettingsProvider;
    expect(second).not.toBe(first);
    expect(second.settings?.baseUrl).toBe('http://127.0.0.1:8080/v1');

    declared = {};
    expect(refusal(registry, 'local')).toMatch(/^INVALID: Provider local is not available: it is/);
  });

  it('a factory registered again replaces the providers built by the old one', () => {
    const declared = {
      local: { ...DEFAULTS, type: 'openai' as const, baseUrl: 'http://127.0.0.1:1/v1' }
    };
    const registry = new ProviderRegistry(() => declared);
    registry.register('openai', (settings) => new SettingsProvider(settings));
    const old = registry.resolve('local');
    const builtin = registry.resolve('builtin');
    const replacement = new SettingsProvider(null);
    registry.register('openai', () => replacement);
    expect(registry.resolve('local')).toBe(replacement);
    expect(registry.resolve('local')).not.toBe(old);
    expect(registry.resolve('builtin')).toBe(builtin);
  });
});
