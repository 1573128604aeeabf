import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonBody } from './body';

/** A real node:http server answering each request with the JSON body it read (or its error). */
let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((req, res) => {
    readJsonBody(req, 1024).then(
      (body) => res.end(JSON.stringify({ body })),
      (err: Error) => res.end(JSON.stringify({ error: err.message }))
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Writes the pieces on one keep-alive connection, `gapMs` apart; the answers' bodies. */
function exchange(pieces: string[], answers: number, gapMs = 0): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => {
      text += d.toString();
      const bodies = [...text.matchAll(/\r\n\r\n([^\r]*?\})(?=HTTP|$)/g)].map((m) => m[1]!);
      if (bodies.length === answers) {
        socket.destroy();
        resolve(bodies.map((b) => JSON.parse(b) as unknown));
      }
    });
    socket.on('error', reject);
    void (async () => {
      for (const piece of pieces) {
        socket.write(piece);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    })();
  });
}

const post = (body: string, extra = '') =>
  `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

describe('readJsonBody on a real connection', () => {
  it('reads a body that came with its headers, two requests in a row on one connection', async () => {
    expect(await exchange([post('{"a":1}') + post('{"b":"\u00e9"}')], 2)).toEqual([
      { body: { a: 1 } },
      { body: { b: '\u00e9' } }
    ]);
  });

  it('reads a body that comes after its headers, in pieces', async () => {
    const whole = post('{"text":"late"}');
    const cut = whole.indexOf('\r\n\r\n') + 4;
    const pieces = [whole.slice(0, cut), whole.slice(cut, cut + 5), whole.slice(cut + 5)];
    expect(await exchange(pieces, 1, 30)).toEqual([{ body: { text: 'late' } }]);
  });

  it('takes JSON by its content type whatever its case and parameters, nothing else', async () => {
    const typed = (type: string) => post('{"t":1}').replace('application/json', type);
    expect(
      await exchange(
        [typed('Application/JSON; charset=utf-8'), typed('application/merge-patch+json')],
        2
      )
    ).toEqual([{ body: { t: 1 } }, { body: { t: 1 } }]);
    expect(await exchange([typed('text/plain')], 1)).toEqual([
      { error: 'Content-Type must be application/json' }
    ]);
  });

  it('reads a chunked body, and an empty one as a JSON error', async () => {
    const chunked =
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n' +
      '4\r\n{"c"\r\n4\r\n:[3]\r\n1\r\n}\r\n0\r\n\r\n';
    expect(await exchange([chunked], 1)).toEqual([{ body: { c: [3] } }]);
    expect(await exchange([post('')], 1)).toEqual([{ error: 'body is not valid JSON' }]);
  });
});
