import { depthExceeds, MAX_JSON_DEPTH } from '../http/body';

/**
 * JSON-RPC 2.0 framing, transport-free: parse a text body, validate each request, dispatch,
 * and build the response (single, batch, or none for notifications).
 */
export const RPC_ERRORS = {
  PARSE: { code: -32700, message: 'Parse error' },
  INVALID_REQUEST: { code: -32600, message: 'Invalid Request' },
  METHOD_NOT_FOUND: { code: -32601, message: 'Method not found' },
  INVALID_PARAMS: { code: -32602, message: 'Invalid params' },
  INTERNAL: { code: -32603, message: 'Internal error' },
  AUTH: { code: -32000, message: 'Authentication Error' },
  PERMISSION: { code: -32001, message: 'Permission Denied' },
  /** Berth's own server errors (-32000 to -32099 is the implementation-defined range). */
  TOO_MANY: { code: -32002, message: 'Too many requests' },
  UNAVAILABLE: { code: -32003, message: 'Service unavailable' }
} as const;

export const MAX_BATCH = 100;

export type RpcId = string | number | null;

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: { detail: string } & Record<string, unknown>;
}

export type RpcResponse =
  | { jsonrpc: '2.0'; result: unknown; id: RpcId }
  | { jsonrpc: '2.0'; error: RpcErrorObject; id: RpcId };

export class RpcError extends Error {
  readonly rpc: { code: number; message: string };
  readonly detail?: string;
  readonly extra: Record<string, unknown>;

  constructor(
    rpc: { code: number; message: string },
    detail?: string,
    extra: Record<string, unknown> = {}
  ) {
    // An answer to the caller, not a fault in Berth: capturing a stack trace here cost about
    // 15% of a small call under load, so none is taken.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(detail ?? rpc.message);
    Error.stackTraceLimit = limit;
    this.rpc = rpc;
    this.detail = detail;
    this.extra = extra;
  }

  toObject(): RpcErrorObject {
    return this.detail === undefined
      ? { code: this.rpc.code, message: this.rpc.message }
      : {
          code: this.rpc.code,
          message: this.rpc.message,
          data: { ...this.extra, detail: this.detail }
        };
  }
}

export interface RpcCall {
  method: string;
  params: Record<string, unknown>;
  id: RpcId;
  notification: boolean;
}

export type Dispatch = (call: RpcCall) => Promise<unknown>;

const isValidId = (id: unknown): id is RpcId =>
  id === null || typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));

/** A valid request, or the error answer for it (echoing the id when it is usable). */
export function validateRequest(value: unknown): RpcCall | RpcResponse {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return errorResponse(
      null,
      new RpcError(RPC_ERRORS.INVALID_REQUEST, 'request must be an object')
    );
  const req = value as Record<string, unknown>;
  const hasId = 'id' in req;
  const id = hasId && isValidId(req.id) ? req.id : null;
  if (hasId && !isValidId(req.id))
    return errorResponse(
      null,
      new RpcError(RPC_ERRORS.INVALID_REQUEST, 'id must be a string, an integer or null')
    );
  if (req.jsonrpc !== '2.0')
    return errorResponse(id, new RpcError(RPC_ERRORS.INVALID_REQUEST, 'jsonrpc must be "2.0"'));
  if (typeof req.method !== 'string' || !req.method)
    return errorResponse(
      id,
      new RpcError(RPC_ERRORS.INVALID_REQUEST, 'method must be a non-empty string')
    );
  const params = req.params;
  // JSON-RPC 2.0 §4.2: params, when present, are a structured value; anything else makes an
  // invalid Request. An array is a valid Request, but Berth's methods take params by name.
  if (params !== undefined && (params === null || typeof params !== 'object'))
    return errorResponse(
      id,
      new RpcError(RPC_ERRORS.INVALID_REQUEST, 'params must be an object or an array')
    );
  if (Array.isArray(params))
    return errorResponse(
      id,
      new RpcError(RPC_ERRORS.INVALID_PARAMS, 'params must be an object (by name)')
    );
  return {
    method: req.method,
    params: (params as Record<string, unknown>) ?? {},
    id,
    notification: !hasId
  };
}

export function errorResponse(id: RpcId, err: RpcError): RpcResponse {
  return { jsonrpc: '2.0', error: err.toObject(), id };
}

async function runOne(value: unknown, dispatch: Dispatch): Promise<RpcResponse | null> {
  const call = validateRequest(value);
  if ('jsonrpc' in call) return call;
  try {
    const result = await dispatch(call);
    return call.notification ? null : { jsonrpc: '2.0', result, id: call.id };
  } catch (err) {
    if (call.notification) return null;
    const rpcErr = err instanceof RpcError ? err : new RpcError(RPC_ERRORS.INTERNAL);
    return errorResponse(call.id, rpcErr);
  }
}

export type RpcAnswer = RpcResponse | RpcResponse[] | null;

/** Handles a whole text message: returns the JSON answer, or null when nothing is to be sent. */
export function handleMessage(text: string, dispatch: Dispatch): Promise<RpcAnswer> {
  // Hostile nesting is refused before JSON.parse builds it.
  if (depthExceeds(text, MAX_JSON_DEPTH))
    return Promise.resolve(
      errorResponse(
        null,
        new RpcError(RPC_ERRORS.PARSE, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`)
      )
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return Promise.resolve(errorResponse(null, new RpcError(RPC_ERRORS.PARSE)));
  }
  return handleValue(parsed, dispatch);
}

/** Handles an already parsed message (a request object or a batch). */
export function handleValue(parsed: unknown, dispatch: Dispatch): Promise<RpcAnswer> {
  // A single request, the common case, takes no extra promise layer.
  return Array.isArray(parsed) ? handleBatch(parsed, dispatch) : runOne(parsed, dispatch);
}

async function handleBatch(batch: unknown[], dispatch: Dispatch): Promise<RpcAnswer> {
  if (batch.length === 0)
    return errorResponse(null, new RpcError(RPC_ERRORS.INVALID_REQUEST, 'empty batch'));
  if (batch.length > MAX_BATCH)
    return errorResponse(
      null,
      new RpcError(RPC_ERRORS.INVALID_REQUEST, `batch holds more than ${MAX_BATCH} requests`)
    );
  const answers = await Promise.all(batch.map((item) => runOne(item, dispatch)));
  const sent = answers.filter((a): a is RpcResponse => a !== null);
  return sent.length ? sent : null;
}

/** The same error for every request of a message that carries an id (none for notifications). */
export function rejectMessage(parsed: unknown, err: RpcError): RpcAnswer {
  const one = (value: unknown): RpcResponse | null => {
    const call = validateRequest(value);
    if ('jsonrpc' in call) return call;
    return call.notification ? null : errorResponse(call.id, err);
  };
  if (!Array.isArray(parsed)) return one(parsed);
  const sent = parsed.map(one).filter((a): a is RpcResponse => a !== null);
  return sent.length ? sent : null;
}
