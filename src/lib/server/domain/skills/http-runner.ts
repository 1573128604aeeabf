import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { SkillDefinition } from '$lib/contracts/skills';
import { pinnedRequest, ResponseTooLarge } from '../../outbound/pinned-request';
import { isPrivateAddress } from '../../outbound/address-policy';
import { renderBody, renderUrl } from './http-template';
import { SkillFailure, type SkillResult, type SkillRunner } from './skill-runner';

type HttpSkill = Extract<SkillDefinition, { kind: 'http' }>;

/** A hostname as compared in the allow-list: lower-case, no trailing dot, IPv6 unbracketed. */
const hostKey = (host: string) =>
  host
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[(.*)\]$/, '$1');

function isJson(headers: Record<string, string>, body: string): boolean {
  const type = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  if (type !== undefined) return /\bjson\b/i.test(type);
  return /^\s*[[{]/.test(body);
}

/**
 * Calls an http skill's endpoint. Its host must be the url's own or one of `allowHosts`; the
 * name is resolved once, every address checked (loopback, private, link-local and the like are
 * refused unless `allowPrivate`), and the connection goes to the checked address, never to a
 * second lookup. Redirects are not followed. A status of 400 or more fails the run.
 */
export class HttpRunner implements SkillRunner<HttpSkill> {
  async run(
    def: HttpSkill,
    params: Record<string, unknown>,
    { signal, log }: Parameters<SkillRunner['run']>[2]
  ): Promise<SkillResult> {
    const url = new URL(renderUrl(def.url, params));
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new SkillFailure(`url must be http or https, not ${url.protocol}`);
    const host = hostKey(url.hostname);
    const allowed = new Set([hostKey(new URL(def.url).hostname), ...def.allowHosts.map(hostKey)]);
    if (!allowed.has(host))
      throw new SkillFailure(`host ${host} is not in this skill's allow-list`);
    const address = await this.#resolve(host, def.allowPrivate);
    signal.throwIfAborted();

    const headers: Record<string, string> = { ...def.headers };
    let body: string | undefined;
    if (def.body !== undefined && def.method !== 'GET') {
      const json = isJson(def.headers, def.body);
      body = renderBody(def.body, params, json);
      if (json && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type'))
        headers['content-type'] = 'application/json';
    }
    // The connection goes to the address checked above, whatever the name resolves to now.
    const res = await pinnedRequest({
      url,
      method: def.method,
      headers,
      body,
      address,
      maxBytes: def.responseMaxBytes,
      signal
    }).catch((err: unknown) => {
      throw err instanceof ResponseTooLarge ? new SkillFailure(err.message) : err;
    });
    log('system', `HTTP ${res.status} ${res.statusText}`.trim());
    const output = parse(res.text, res.contentType);
    if (res.status >= 400)
      throw new SkillFailure(
        `the endpoint answered ${res.status} ${res.statusText}`.trim(),
        null,
        output
      );
    return { output, exitCode: null };
  }

  async #resolve(host: string, allowPrivate: boolean): Promise<{ address: string; family: 4 | 6 }> {
    const found = isIP(host)
      ? [{ address: host, family: isIP(host) as 4 | 6 }]
      : await dnsLookup(host, { all: true, verbatim: true }).catch(() => {
          throw new SkillFailure(`host ${host} could not be resolved`);
        });
    if (!found.length) throw new SkillFailure(`host ${host} could not be resolved`);
    if (!allowPrivate) {
      // Every address is checked: a name with one public and one private address is refused.
      const bad = found.find((a) => isPrivateAddress(a.address));
      if (bad)
        throw new SkillFailure(
          `host ${host} resolves to ${bad.address}, a loopback, private or link-local address (allowPrivate is off)`
        );
    }
    const first = found[0]!;
    return { address: first.address, family: first.family === 6 ? 6 : 4 };
  }
}

function parse(text: string, type: string | undefined): unknown {
  if (!text) return null;
  if (type && /\bjson\b/i.test(type))
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  return text;
}
