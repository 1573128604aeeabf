import { describe, expect, it } from 'vitest';
import { handleMessage, RpcError, RPC_ERRORS, type Dispatch } from './jsonrpc';

// The JSON-RPC 2.0 specification's examples, with our dispatcher behind them.
const dispatch: Dispatch = (call) => {
  if (call.method === 'subtract') {
    const { minuend, subtrahend } = call.params as { minuend: number; subtrahend: number };
    return Promise.resolve(minuend - subtrahend);
  }
  if (call.method === 'notify_hello' || call.method === 'update') return Promise.resolve(null);
  if (call.method === 'boom') return Promise.reject(new Error('secret internals'));
  return Promise.reject(new RpcError(RPC_ERRORS.METHOD_NOT_FOUND, `unknown method ${call.method}`));
};

describe('JSON-RPC 2.0 framing', () => {
  it('answers a call with named params, echoing the id with its type', async () => {
    expect(
      await handleMessage(
        '{"jsonrpc":"2.0","method":"subtract","params":{"minuend":42,"subtrahend":23},"id":3}',
        dispatch
      )
    ).toEqual({
      jsonrpc: '2.0',
      result: 19,
      id: 3
    });
    expect(
      await handleMessage(
        '{"jsonrpc":"2.0","method":"subtract","params":{"minuend":1,"subtrahend":1},"id":"3"}',
        dispatch
      )
    ).toMatchObject({ id: '3' });
    expect(
      await handleMessage(
        '{"jsonrpc":"2.0","method":"subtract","params":{"minuend":1,"subtrahend":1},"id":null}',
        dispatch
      )
    ).toMatchObject({ id: null, result: 0 });
  });

  it('sends nothing for notifications, even failing ones', async () => {
    expect(
      await handleMessage('{"jsonrpc":"2.0","method":"update","params":{}}', dispatch)
    ).toBeNull();
    expect(await handleMessage('{"jsonrpc":"2.0","method":"foobar"}', dispatch)).toBeNull();
  });

  it('reports unknown methods, parse errors and invalid requests with the spec codes', async () => {
    expect(
      await handleMessage('{"jsonrpc":"2.0","method":"foobar","id":"1"}', dispatch)
    ).toMatchObject({ error: { code: -32601, message: 'Method not found' }, id: '1' });
    expect(
      await handleMessage('{"jsonrpc":"2.0","method":"foobar, "params":"bar", "baz]', dispatch)
    ).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
    expect(
      await handleMessage('{"jsonrpc":"2.0","method":1,"params":"bar"}', dispatch)
    ).toMatchObject({ error: { code: -32600 }, id: null });
    expect(
      await handleMessage('{"jsonrpc":"1.0","method":"subtract","id":7}', dispatch)
    ).toMatchObject({ error: { code: -32600 }, id: 7 });
    expect(
      await handleMessage('{"jsonrpc":"2.0","method":"subtract","params":[1,2],"id":8}', dispatch)
    ).toMatchObject({ error: { code: -32602 }, id: 8 });
  });

  it('answers params that are not structured with -32600, in batches too; arrays with -32602', async () => {
    for (const params of ['"bar"', '5', 'true', 'null'])
      expect(
        await handleMessage(
          `{"jsonrpc":"2.0","method":"subtract","params":${params},"id":9}`,
          dispatch
        ),
        params
      ).toEqual({
        jsonrpc: '2.0',
        error: {
          code: -32600,
          message: 'Invalid Request',
          data: { detail: 'params must be an object or an array' }
        },
        id: 9
      });
    expect(
      await handleMessage('{"jsonrpc":"2.0","method":"update","params":"bar"}', dispatch)
    ).toMatchObject({ error: { code: -32600 }, id: null });
    const batch = (await handleMessage(
      JSON.stringify([
        { jsonrpc: '2.0', method: 'subtract', params: 'bar', id: 1 },
        { jsonrpc: '2.0', method: 'subtract', params: 5, id: 2 },
        { jsonrpc: '2.0', method: 'subtract', params: [5, 2], id: 3 },
        { jsonrpc: '2.0', method: 'subtract', params: { minuend: 5, subtrahend: 2 }, id: 4 }
      ]),
      dispatch
    )) as { id: unknown; error?: { code: number }; result?: unknown }[];
    expect(batch.map((a) => [a.id, a.error?.code ?? a.result])).toEqual([
      [1, -32600],
      [2, -32600],
      [3, -32602],
      [4, 3]
    ]);
  });

  it('refuses ids that are not strings, safe integers or null', async () => {
    for (const id of ['1.5', '{"a":1}', '[1]', 'true', String(2 ** 53)])
      expect(
        await handleMessage(`{"jsonrpc":"2.0","method":"subtract","id":${id}}`, dispatch),
        id
      ).toMatchObject({ error: { code: -32600 }, id: null });
  });

  it('handles batches as the specification shows', async () => {
    expect(await handleMessage('[1]', dispatch)).toEqual([
      {
        jsonrpc: '2.0',
        error: {
          code: -32600,
          message: 'Invalid Request',
          data: { detail: 'request must be an object' }
        },
        id: null
      }
    ]);
    expect(await handleMessage('[]', dispatch)).toMatchObject({
      error: { code: -32600 },
      id: null
    });
    expect(
      await handleMessage(
        '[{"jsonrpc":"2.0","method":"sum","params":{},"id":"1"},{"jsonrpc":"2.0","method"',
        dispatch
      )
    ).toMatchObject({ error: { code: -32700 } });
    const mixed = (await handleMessage(
      JSON.stringify([
        { jsonrpc: '2.0', method: 'subtract', params: { minuend: 5, subtrahend: 2 }, id: '1' },
        { jsonrpc: '2.0', method: 'notify_hello', params: {} },
        { foo: 'boo' },
        { jsonrpc: '2.0', method: 'foo.get', params: {}, id: '5' }
      ]),
      dispatch
    )) as { id: unknown }[];
    expect(mixed).toHaveLength(3);
    expect(mixed.map((r) => r.id)).toEqual(['1', null, '5']);
    expect(
      await handleMessage('[{"jsonrpc":"2.0","method":"update","params":{}}]', dispatch)
    ).toBeNull();
  });

  it('caps batches at 100 and hides internal errors', async () => {
    const big = JSON.stringify(
      Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', method: 'update', id: i }))
    );
    expect(await handleMessage(big, dispatch)).toMatchObject({
      error: { code: -32600, data: { detail: 'batch holds more than 100 requests' } }
    });
    const boom = await handleMessage('{"jsonrpc":"2.0","method":"boom","id":1}', dispatch);
    expect(boom).toEqual({
      jsonrpc: '2.0',
      error: { code: -32603, message: 'Internal error' },
      id: 1
    });
  });
});
