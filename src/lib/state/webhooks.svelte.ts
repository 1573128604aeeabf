import { trpc } from '$lib/client/trpc';
import type {
  DeliveryDetail,
  DeliverySummary,
  MappingView,
  SaveMappingInput,
  WebhookTokenView
} from '$lib/contracts/webhooks';
import type { SecretReveal } from './credentials.svelte';

/** The Webhooks page: mappings (file and console), webhook tokens (admins) and deliveries. */
export class WebhooksState {
  mappings = $state<MappingView[]>([]);
  tokens = $state<WebhookTokenView[]>([]);
  deliveries = $state<DeliverySummary[]>([]);
  loaded = $state(false);
  tokensLoaded = $state(false);
  deliveriesLoaded = $state(false);
  deliveryFilter = $state('');

  constructor(private readonly reveal: SecretReveal) {}

  async load(): Promise<void> {
    this.mappings = await trpc.webhooks.mappings.list.query();
    this.loaded = true;
  }

  async save(input: SaveMappingInput, existing: boolean): Promise<void> {
    if (existing) await trpc.webhooks.mappings.update.mutate(input);
    else await trpc.webhooks.mappings.create.mutate(input);
    await this.load();
  }

  async remove(name: string): Promise<void> {
    await trpc.webhooks.mappings.delete.mutate({ name });
    this.mappings = this.mappings.filter((m) => m.source === 'file' || m.name !== name);
  }

  async loadTokens(): Promise<void> {
    this.tokens = await trpc.webhooks.tokens.list.query();
    this.tokensLoaded = true;
  }

  /** `signing`: also a GitHub webhook Secret (X-Hub-Signature-256). */
  async createToken(name: string, signing = false): Promise<void> {
    const made = await trpc.webhooks.tokens.create.mutate({ name, signing });
    this.reveal.show({
      kind: 'token',
      name: made.name,
      secret: made.token,
      action: 'created',
      signing: made.signing
    });
    await this.loadTokens();
  }

  async rotate(id: string): Promise<void> {
    const made = await trpc.webhooks.tokens.rotate.mutate({ id });
    this.reveal.show({
      kind: 'token',
      name: made.name,
      secret: made.token,
      action: 'rotated',
      signing: made.signing
    });
    await this.loadTokens();
  }

  async revoke(id: string): Promise<void> {
    await trpc.webhooks.tokens.revoke.mutate({ id });
    this.tokens = this.tokens.filter((t) => t.id !== id);
  }

  async loadDeliveries(): Promise<void> {
    this.deliveries = await trpc.webhooks.deliveries.list.query({
      mapping: this.deliveryFilter || undefined,
      limit: 50
    });
    this.deliveriesLoaded = true;
  }

  detail(id: number): Promise<DeliveryDetail> {
    return trpc.webhooks.deliveries.get.query({ id });
  }

  async rerun(id: number): Promise<void> {
    await trpc.webhooks.deliveries.rerun.mutate({ id });
    await this.loadDeliveries();
  }
}
