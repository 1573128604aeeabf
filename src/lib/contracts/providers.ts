import { z } from 'zod';

/** A provider's name as agents refer to it: the same rules as a console engine's. */
export const providerNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'lower-case letters, digits, - and _');

/** Settings → Providers: an OpenAI-compatible endpoint added in the console. */
export const providerAddSchema = z.strictObject({
  name: providerNameSchema.refine((name) => name !== 'builtin', 'builtin is the embedded provider'),
  /** The API root, e.g. `http://127.0.0.1:11434/v1`. */
  baseUrl: z.url({ protocol: /^https?$/, error: 'an http:// or https:// URL' }).max(2048),
  /** The model when the agent names none. */
  model: z.string().trim().max(200).optional(),
  /** Sent as `Authorization: Bearer …`; stored on the server and never shown again. */
  apiKey: z.string().max(4096).optional()
});
export type ProviderAddInput = z.input<typeof providerAddSchema>;

/** Changes a console provider; the name picks it. No `apiKey`: the stored key is kept. */
export const providerUpdateSchema = providerAddSchema.extend({ name: providerNameSchema });
export type ProviderUpdateInput = z.input<typeof providerUpdateSchema>;

export const providerRefSchema = z.strictObject({ name: providerNameSchema });

/** One provider as Settings → Providers shows it: never its key, only whether one is set. */
export interface ProviderSetting {
  name: string;
  type: 'builtin' | 'openai';
  source: 'builtin' | 'config' | 'console';
  baseUrl: string | null;
  model: string | null;
  hasKey: boolean;
  /** The agents that name it. */
  usedBy: string[];
}

/** The answer of "test connection": the models `GET {baseUrl}/models` listed. */
export interface ProviderTestResult {
  name: string;
  models: string[];
}
