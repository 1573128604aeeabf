import { trpc } from '$lib/client/trpc';
import type {
  ApiKeyView,
  CreateApiKeyInput,
  CreateRpcTokenInput,
  RpcTokenView
} from '$lib/contracts/credentials';

/** A secret as the server handed it over, once: after create or rotate. */
export interface RevealedSecret {
  kind: 'token' | 'key';
  name: string;
  secret: string;
  /** What happened, for the panel's heading: "created" or "rotated". */
  action: 'created' | 'rotated';
  /** A GitHub signing token: the server keeps the secret itself, not only a hash. */
  signing?: boolean;
}

/**
 * Holds a freshly issued secret until the reader dismisses it. Nothing else keeps it: lists
 * carry only prefixes, and dismissing drops the last reference, so it cannot be shown again.
 */
export class SecretReveal {
  current = $state.raw<RevealedSecret | null>(null);

  show(secret: RevealedSecret): void {
    this.current = secret;
  }

  dismiss(): void {
    this.current = null;
  }
}

/** RPC tokens on the Tokens page: listed without secrets, changed through tRPC. */
export class RpcTokensState {
  tokens = $state<RpcTokenView[]>([]);
  methods = $state<string[]>([]);
  loaded = $state(false);

  constructor(private readonly reveal: SecretReveal) {}

  async load(): Promise<void> {
    const [tokens, methods] = await Promise.all([
      trpc.credentials.rpcTokens.list.query(),
      trpc.credentials.rpcTokens.methods.query()
    ]);
    this.tokens = tokens;
    this.methods = methods;
    this.loaded = true;
  }

  async refresh(): Promise<void> {
    this.tokens = await trpc.credentials.rpcTokens.list.query();
  }

  async create(input: CreateRpcTokenInput): Promise<void> {
    const created = await trpc.credentials.rpcTokens.create.mutate(input);
    this.reveal.show({
      kind: 'token',
      name: created.name,
      secret: created.token,
      action: 'created'
    });
    await this.refresh();
  }

  async rotate(id: string): Promise<void> {
    const rotated = await trpc.credentials.rpcTokens.rotate.mutate({ id });
    this.reveal.show({
      kind: 'token',
      name: rotated.name,
      secret: rotated.token,
      action: 'rotated'
    });
    await this.refresh();
  }

  async revoke(id: string): Promise<void> {
    await trpc.credentials.rpcTokens.revoke.mutate({ id });
    this.tokens = this.tokens.filter((t) => t.id !== id);
  }
}

/** REST API keys in Settings: listed without secrets, changed through tRPC. */
export class ApiKeysState {
  keys = $state<ApiKeyView[]>([]);
  loaded = $state(false);

  constructor(private readonly reveal: SecretReveal) {}

  async load(): Promise<void> {
    this.keys = await trpc.credentials.apiKeys.list.query();
    this.loaded = true;
  }

  async create(input: CreateApiKeyInput): Promise<void> {
    const created = await trpc.credentials.apiKeys.create.mutate(input);
    this.reveal.show({ kind: 'key', name: created.name, secret: created.key, action: 'created' });
    await this.load();
  }

  async rotate(id: string): Promise<void> {
    const rotated = await trpc.credentials.apiKeys.rotate.mutate({ id });
    this.reveal.show({ kind: 'key', name: rotated.name, secret: rotated.key, action: 'rotated' });
    await this.load();
  }

  async revoke(id: string): Promise<void> {
    await trpc.credentials.apiKeys.revoke.mutate({ id });
    this.keys = this.keys.filter((k) => k.id !== id);
  }
}
