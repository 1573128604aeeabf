import type { BerthConfig } from '../../config/config.schema';
import { invalid } from '../../errors';
import { BuiltinProvider } from './builtin.provider';
import type { Provider } from './provider';

/** An entry of `providers:` in berth.yaml: its `type` names the factory that builds it. */
export type ProviderSettings = BerthConfig['providers'][string];

/**
 * Builds a provider. A provider an agent names directly (`builtin`) is built with no
 * settings; a `providers:` entry is built by the factory registered under its `type`, with
 * the entry.
 */
export type ProviderFactory = (settings: ProviderSettings | null, name: string) => Provider;

/**
 * How an agent's provider name becomes a provider: a name registered here (`builtin` always
 * is), or a declared entry (berth.yaml's `providers:` and those added in the console) whose
 * `type` is registered (the runtime registers `openai`). Read at each use, so a reload or a
 * console change that adds, changes or drops an entry applies to the next turn.
 */
export class ProviderRegistry {
  readonly #factories = new Map<string, ProviderFactory>();
  /** Types that only build `providers:` entries: no agent names them directly. */
  readonly #typesOnly = new Set<string>();
  /** Built providers by name, with the settings they were built from (null for direct names). */
  readonly #built = new Map<string, { settings: ProviderSettings | null; provider: Provider }>();

  constructor(private readonly declared: () => BerthConfig['providers']) {
    this.register('builtin', () => new BuiltinProvider());
  }

  /** `typeOnly`: the factory builds `providers:` entries of this type only (as `openai`). */
  register(name: string, factory: ProviderFactory, { typeOnly = false } = {}): void {
    this.#factories.set(name, factory);
    if (typeOnly) this.#typesOnly.add(name);
    else this.#typesOnly.delete(name);
    for (const [built, { settings }] of this.#built)
      if (built === name || settings?.type === name) this.#built.delete(built);
  }

  /** Names registered to be used directly by an agent. */
  names(): string[] {
    return [...this.#factories.keys()].filter((name) => !this.#typesOnly.has(name));
  }

  /** Every name an agent may pick: the registered ones, then the declared entries. */
  all(): string[] {
    return [...new Set([...this.names(), ...Object.keys(this.declared())])];
  }

  /** Whether `name` resolves to a provider, without building it. */
  has(name: string): boolean {
    return this.#lookup(name).factory !== undefined;
  }

  /** The provider an agent names; INVALID, naming it, when none can run. */
  resolve(name: string): Provider {
    const { factory, settings } = this.#lookup(name);
    if (!factory) {
      const why = settings
        ? `providers.${name} has type ${settings.type}, and no provider of that type is registered`
        : `it is neither registered nor declared under providers: in the config`;
      throw invalid(`Provider ${name} is not available: ${why}`);
    }
    const built = this.#built.get(name);
    if (built && built.settings === settings) return built.provider;
    const provider = factory(settings, name);
    this.#built.set(name, { settings, provider });
    return provider;
  }

  /** A `providers:` entry wins over a registered name, as the config file is the operator's. */
  #lookup(name: string): { factory?: ProviderFactory; settings: ProviderSettings | null } {
    const settings = Object.hasOwn(this.declared(), name) ? this.declared()[name]! : null;
    if (!settings && this.#typesOnly.has(name)) return { settings };
    return { factory: this.#factories.get(settings ? settings.type : name), settings };
  }
}
