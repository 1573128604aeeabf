import {
  CONFIG_ID_PREFIX,
  createApiKeyInput,
  createRpcTokenInput,
  credentialIdInput,
  type ApiKeyView,
  type RpcTokenView
} from '$lib/contracts/credentials';
import { RPC_PERMISSIONS } from '$lib/contracts/rpc-methods';
import { invalid } from '../../errors';
import { roleProcedure, router } from '../init';

const admin = roleProcedure('admin');

/**
 * Entries from berth.yaml have no row to change; the service would answer "not found", which
 * reads as if they were gone. Say what is true and where to change them instead.
 */
function refuseConfigEntry(id: string, what: string): void {
  if (id.startsWith(CONFIG_ID_PREFIX))
    throw invalid(
      `The ${what} ${id.slice(CONFIG_ID_PREFIX.length)} is declared in the config file; change or remove it there`
    );
}

const rpcTokens = router({
  list: admin.query(({ ctx }): RpcTokenView[] => ctx.app.gateway.credentials.listRpcTokens()),
  methods: admin.query(() => [...RPC_PERMISSIONS]),
  create: admin
    .input(createRpcTokenInput)
    .mutation(({ ctx, input }) =>
      ctx.app.gateway.credentials.createRpcToken(input.name, input.permissions, ctx.actor)
    ),
  rotate: admin.input(credentialIdInput).mutation(({ ctx, input }) => {
    refuseConfigEntry(input.id, 'token');
    return ctx.app.gateway.credentials.rotateRpcToken(input.id, ctx.actor);
  }),
  revoke: admin.input(credentialIdInput).mutation(({ ctx, input }) => {
    refuseConfigEntry(input.id, 'token');
    ctx.app.gateway.credentials.revokeRpcToken(input.id, ctx.actor);
    return { ok: true as const };
  })
});

const apiKeys = router({
  list: admin.query(({ ctx }): ApiKeyView[] => ctx.app.gateway.credentials.listApiKeys()),
  create: admin
    .input(createApiKeyInput)
    .mutation(({ ctx, input }) =>
      ctx.app.gateway.credentials.createApiKey(input.name, input.role, ctx.actor)
    ),
  rotate: admin.input(credentialIdInput).mutation(({ ctx, input }) => {
    refuseConfigEntry(input.id, 'API key');
    return ctx.app.gateway.credentials.rotateApiKey(input.id, ctx.actor);
  }),
  revoke: admin.input(credentialIdInput).mutation(({ ctx, input }) => {
    refuseConfigEntry(input.id, 'API key');
    ctx.app.gateway.credentials.revokeApiKey(input.id, ctx.actor);
    return { ok: true as const };
  })
});

/** RPC tokens (Tokens page) and REST API keys (Settings): admin only, secrets shown once. */
export const credentialsRouter = router({ rpcTokens, apiKeys });
