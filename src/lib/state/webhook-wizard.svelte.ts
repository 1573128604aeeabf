import { trpc } from '$lib/client/trpc';
import type { CapturedDelivery, DeliveryDetail } from '$lib/contracts/webhooks';
import { formatConditions, parseConditions } from '$lib/webhooks/conditions';
import { conditionLine, type PayloadNode } from '$lib/webhooks/payload-tree';
import { presetById, type Sender } from '$lib/webhooks/presets';
import { preview } from '$lib/webhooks/preview';

/** What the wizard sets up: a mapping, or one of the built-in routes as they are. */
export type WizardKind = 'mapping' | 'wake' | 'agent';
export const WIZARD_STEPS = ['Kind', 'Sample', 'Conditions', 'Destination', 'Finish'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

type Sample =
  { ok: true; headers: Record<string, string>; body: unknown } | { ok: false; error: string };

function parseSample(headersText: string, bodyText: string): Sample {
  try {
    const headers = JSON.parse(headersText || '{}') as unknown;
    if (headers === null || typeof headers !== 'object' || Array.isArray(headers))
      return { ok: false, error: 'Headers must be a JSON object' };
    for (const value of Object.values(headers))
      if (typeof value !== 'string') return { ok: false, error: 'Header values must be text' };
    return { ok: true, headers: headers as Record<string, string>, body: JSON.parse(bodyText) };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * The webhook wizard's state: the choices of each step, the sample delivery (pasted, from a
 * preset, or captured), and the live preview on the server's own match and template code.
 */
export class WebhookWizardState {
  step = $state<WizardStep>('Kind');
  kind = $state<WizardKind>('mapping');
  presetId = $state<string>('github-push');
  sender = $state<Sender | 'custom'>('github');
  headersText = $state('{}');
  bodyText = $state('{}');
  conditions = $state('');
  message = $state('');
  name = $state('');
  agent = $state('');
  session = $state('');
  model = $state('');
  delivery = $state<'announce' | 'none'>('announce');
  /** Set once the mapping exists: the finish step's endpoint and test delivery. */
  created = $state<string | null>(null);
  lastTest = $state<DeliveryDetail | null>(null);

  readonly sample = $derived(parseSample(this.headersText, this.bodyText));
  readonly parsed = $derived(parseConditions(this.conditions));
  readonly preview = $derived(
    this.sample.ok
      ? preview({ match: this.parsed.match, message: this.message }, this.sample)
      : null
  );
  /** Which steps this kind goes through: the built-in routes need no mapping. */
  readonly steps = $derived<readonly WizardStep[]>(
    this.kind === 'mapping' ? WIZARD_STEPS : ['Kind', 'Finish']
  );

  constructor() {
    this.usePreset('github-push');
  }

  /** A preset fills every field it knows; "custom" keeps a blank mapping. */
  usePreset(id: string): void {
    this.presetId = id;
    const preset = presetById(id);
    if (!preset) {
      this.sender = 'custom';
      this.headersText = pretty({ 'content-type': 'application/json' });
      this.bodyText = pretty({});
      this.conditions = '';
      this.message = '';
      return;
    }
    this.sender = preset.sender;
    this.headersText = pretty(preset.sample.headers);
    this.bodyText = pretty(preset.sample.body);
    this.conditions = formatConditions(preset.match);
    this.message = preset.message;
    this.name ||= preset.name;
  }

  /** A captured delivery becomes the sample (its headers already without secrets). */
  useCaptured(delivery: CapturedDelivery): void {
    this.headersText = pretty(delivery.headers);
    this.bodyText = pretty(delivery.body);
  }

  /** A clicked field becomes a condition (replacing one on the same reference). */
  addCondition(node: PayloadNode): void {
    const lines = this.conditions
      .split('\n')
      .filter((l) => l.trim() && l.split('=')[0]!.trim() !== node.reference);
    this.conditions = [...lines, conditionLine(node)].join('\n');
  }

  /** A clicked field becomes a placeholder at the end of the message. */
  addPlaceholder(node: PayloadNode): void {
    const sep = this.message && !this.message.endsWith(' ') ? ' ' : '';
    this.message = `${this.message}${sep}{${node.reference}}`;
  }

  go(step: WizardStep): void {
    this.step = step;
  }

  move(by: 1 | -1): void {
    const at = this.steps.indexOf(this.step);
    this.step = this.steps[Math.min(this.steps.length - 1, Math.max(0, at + by))]!;
  }

  async create(): Promise<void> {
    await trpc.webhooks.mappings.create.mutate({
      name: this.name,
      match: this.parsed.match,
      message: this.message,
      agent: this.agent || undefined,
      session: this.session || undefined,
      model: this.model || undefined,
      delivery: this.delivery
    });
    this.created = this.name;
  }

  async sendTest(): Promise<DeliveryDetail> {
    if (!this.created || !this.sample.ok) throw new Error('Create the mapping first');
    this.lastTest = await trpc.webhooks.deliveries.test.mutate({
      name: this.created,
      headers: this.sample.headers,
      body: this.sample.body
    });
    return this.lastTest;
  }
}
