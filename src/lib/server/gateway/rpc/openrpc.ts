import { z } from 'zod';
import { RPC_CONTRACTS, type RpcMethodContract } from '$lib/contracts/rpc-methods';
import type { discoverResult } from '$lib/contracts/rpc-results';
import { RPC_ERRORS } from './jsonrpc';

type JsonSchema = Record<string, unknown>;
type OpenRpcDocument = z.output<typeof discoverResult>;

let cached: { version: string; doc: OpenRpcDocument } | undefined;

/**
 * rpc.discover: an OpenRPC 1.3 document generated from the contract table, so the schemas
 * published are the very zod schemas that validate the calls (params) and type the handlers
 * (results).
 */
export function openRpcDocument(version: string): OpenRpcDocument {
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
    methods: Object.entries(RPC_CONTRACTS).map(([name, method]) => describe(name, method)),
    components: {
      errors: Object.fromEntries(
        Object.entries(RPC_ERRORS).map(([key, e]) => [key, { code: e.code, message: e.message }])
      )
    }
  };
  cached = { version, doc };
  return doc;
}

/** JSON Schema draft 7, the dialect OpenRPC 1.3 names; its $schema line is implied. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'draft-7',
    unrepresentable: 'any'
  }) as JsonSchema;
  return rest;
}

function describe(name: string, method: RpcMethodContract) {
  const schema = jsonSchema(method.params, 'input');
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
    result: { name: 'result', schema: jsonSchema(method.result, 'output') },
    ...(method.wsOnly ? { servers: [{ name: 'websocket', url: '/rpc/ws' }] } : {})
  };
}
