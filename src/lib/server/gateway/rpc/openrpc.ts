import { z } from 'zod';
import { RPC_ERRORS } from './jsonrpc';
import type { RpcMethod } from './rpc.methods';

type JsonSchema = Record<string, unknown>;

let cached: { version: string; doc: unknown } | undefined;

/**
 * rpc.discover: an OpenRPC 1.3 document generated from the method table, so the params
 * schemas published are the very zod schemas that validate the calls.
 */
export function openRpcDocument(methods: ReadonlyMap<string, RpcMethod>, version: string): unknown {
  if (cached?.version === version) return cached.doc;
  const doc = {
    openrpc: '1.3.2',
    info: {
      title: 'Berth JSON-RPC adapter',
      version,
      description:
        'JSON-RPC 2.0 over POST /rpc and the /rpc/ws WebSocket. Params are always an object (by name). Authenticate with Authorization: Bearer <token>.'
    },
    servers: [
      { name: 'http', url: '/rpc' },
      { name: 'websocket', url: '/rpc/ws' }
    ],
    methods: [...methods].map(([name, method]) => describe(name, method)),
    components: {
      errors: Object.fromEntries(
        Object.entries(RPC_ERRORS).map(([key, e]) => [key, { code: e.code, message: e.message }])
      )
    }
  };
  cached = { version, doc };
  return doc;
}

function describe(name: string, method: RpcMethod) {
  const schema = z.toJSONSchema(method.params, {
    io: 'input',
    unrepresentable: 'any'
  }) as JsonSchema;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return {
    name,
    description: method.description,
    paramStructure: 'by-name',
    params: Object.entries(properties).map(([param, s]) => ({
      name: param,
      required: required.has(param),
      ...(typeof s.description === 'string' ? { description: s.description } : {}),
      schema: s
    })),
    result: { name: 'result', schema: { type: 'object' } },
    ...(method.wsOnly ? { servers: [{ name: 'websocket', url: '/rpc/ws' }] } : {})
  };
}
