import { z } from 'zod';
import { roleSchema } from './roles';
import { ALL_METHODS, RPC_PERMISSIONS } from './rpc-methods';

/** Names show up in logs, metrics and audit entries: short and plain. */
export const credentialNameSchema = z
  .string()
  .trim()
  .min(1, 'Give it a name')
  .max(64, 'Use at most 64 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'Use only letters, digits, dot, dash and underscore');

/** Known method names or `*`; duplicates dropped, and `*` alone when it is there. */
export const rpcPermissionsSchema = z
  .array(z.string().refine((p) => RPC_PERMISSIONS.includes(p), { error: 'Unknown RPC method' }))
  .min(1, 'Choose at least one method')
  .transform((list) => (list.includes(ALL_METHODS) ? [ALL_METHODS] : [...new Set(list)]));

export const credentialIdInput = z.object({ id: z.string().min(1).max(200) });

export const createRpcTokenInput = z.object({
  name: credentialNameSchema,
  permissions: rpcPermissionsSchema
});
export type CreateRpcTokenInput = z.input<typeof createRpcTokenInput>;

export const createApiKeyInput = z.object({ name: credentialNameSchema, role: roleSchema });
export type CreateApiKeyInput = z.infer<typeof createApiKeyInput>;

/** Ids of entries declared in berth.yaml; the console can only show them. */
export const CONFIG_ID_PREFIX = 'config:';

export type CredentialSource = 'config' | 'console';

/** What the console lists of any credential; the secret itself is never among it. */
export interface CredentialView {
  id: string;
  name: string;
  /** The secret's first characters, enough to recognise it; null for config entries. */
  prefix: string | null;
  source: CredentialSource;
  createdAt: number | null;
  /** When its secret was last replaced; null if never (or a config entry). */
  rotatedAt: number | null;
  /** When it last let a request in; for config entries, since Berth started. */
  lastUsedAt: number | null;
}

export interface RpcTokenView extends CredentialView {
  permissions: string[];
}

export interface ApiKeyView extends CredentialView {
  role: z.infer<typeof roleSchema>;
}
