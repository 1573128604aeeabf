/** JSON-RPC over HTTP, as the suites speak it to /rpc. */
import type { Berth } from './berth';

/** A JSON-RPC 2.0 request as text. */
export const rpcRequest = (method: string, params: unknown = {}, id: unknown = 1) =>
  JSON.stringify({ jsonrpc: '2.0', method, params, id });

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** POST /rpc with `body` as given, with a bearer token unless it is null. */
export async function postRpc(
  berth: Berth,
  body: string,
  token: string | null,
  headers: Record<string, string> = {}
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(`${berth.url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? bearer(token) : {}), ...headers },
    body
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** One call over POST /rpc; the whole answer object. */
export async function callRpc<T = unknown>(
  berth: Berth,
  token: string,
  method: string,
  params: unknown = {}
): Promise<{ result?: T; error?: { code: number; message: string; data?: unknown } }> {
  return JSON.parse((await postRpc(berth, rpcRequest(method, params), token)).text) as never;
}
