import { request as httpRequest, STATUS_CODES } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * One outbound HTTP(S) request whose connection goes to an address the caller already checked
 * (no second DNS lookup between the check and the connect). TLS still verifies the url's host
 * name. Redirects are not followed; the answer is read up to `maxBytes`.
 */
export interface PinnedRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string;
  address: { address: string; family: 4 | 6 };
  maxBytes: number;
  signal: AbortSignal;
}

export interface PinnedResponse {
  status: number;
  /** "Not Found" for 404. */
  statusText: string;
  contentType: string | undefined;
  text: string;
}

/** The answer was longer than the caller allows (the connection is dropped). */
export class ResponseTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`response exceeded ${maxBytes} bytes`);
  }
}

export function pinnedRequest(input: PinnedRequest): Promise<PinnedResponse> {
  const { address } = input;
  const lookup: LookupFunction = (_name, options, callback) => {
    if (options.all) callback(null, [address]);
    else callback(null, address.address, address.family);
  };
  const request = input.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      input.url,
      { method: input.method, headers: input.headers, lookup, signal: input.signal },
      (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > input.maxBytes) {
            res.destroy();
            reject(new ResponseTooLarge(input.maxBytes));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          resolve({
            status,
            statusText: STATUS_CODES[status] ?? '',
            contentType: res.headers['content-type'],
            text: Buffer.concat(chunks).toString('utf8')
          });
        });
        res.on('error', reject);
      }
    );
    req.on('error', reject);
    req.end(input.body);
  });
}
