import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { OutboundSend } from '../domain/outbound/outbound-send';
import { blockedKind } from './address-policy';

/** At most this much of an answer is read (and thrown away): the status is what counts. */
const ANSWER_MAX = 64 * 1024;

/**
 * POSTs one signed message. The address is checked where the connection is made (the
 * resolved one, not the name), so a name that resolves to a private address is refused too,
 * and a DNS answer that changes between a check and the connect cannot slip past it.
 */
export const sendOutbound: OutboundSend = ({ url, headers, body, allowPrivate, timeoutMs }) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (!allowPrivate && isIP(host)) {
      const kind = blockedKind(host);
      if (kind)
        return reject(new Error(`refused: ${host} is a ${kind} address (allowPrivate is off)`));
    }
    const lookup: LookupFunction = (hostname, options, callback) =>
      dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
        if (err) return callback(err, '', 0);
        const refused = allowPrivate
          ? undefined
          : addresses.find((a) => blockedKind(a.address) !== null);
        if (refused)
          return callback(
            new Error(
              `refused: ${hostname} resolves to ${refused.address}, a ${blockedKind(refused.address)} address (allowPrivate is off)`
            ),
            '',
            0
          );
        const first = addresses[0]!;
        if (options.all)
          return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        callback(null, first.address, first.family);
      });
    const options: RequestOptions = {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'Berth-Webhooks/1'
      },
      lookup,
      timeout: timeoutMs
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, options, (res) => {
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > ANSWER_MAX) res.destroy();
      });
      res.on('close', () => resolve({ status: res.statusCode ?? 0 }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0 }));
    });
    const deadline = setTimeout(
      () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)),
      timeoutMs
    );
    req.on('timeout', () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(deadline);
      reject(new Error(describe(err), { cause: err }));
    });
    req.on('close', () => clearTimeout(deadline));
    req.end(body);
  });

function describe(err: NodeJS.ErrnoException): string {
  if (err.code === 'ECONNREFUSED') return 'connection refused';
  if (err.code === 'ENOTFOUND') return 'host not found';
  if (err.code === 'ECONNRESET') return 'connection reset';
  return err.message;
}
