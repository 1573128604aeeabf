import { BlockList, isIP } from 'node:net';

/**
 * Addresses Berth's own requests may not reach unless their entry says `allowPrivate: true`:
 * an outbound webhook's delivery and an http skill's call share this one list. Loopback,
 * private (RFC 1918, unique-local), link-local (cloud metadata lives there), carrier-grade NAT,
 * "this network", reserved and multicast, and IPv6 forms that embed an IPv4 address (mapped,
 * NAT64, 6to4). Checked on the address a name resolves to, at connect time, so a name pointing
 * at 127.0.0.1 is refused as the address itself is.
 */
const BLOCKED: [string, number, 'ipv4' | 'ipv6', string][] = [
  ['0.0.0.0', 8, 'ipv4', 'unspecified'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['100.64.0.0', 10, 'ipv4', 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['169.254.0.0', 16, 'ipv4', 'link-local'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.0.0.0', 24, 'ipv4', 'reserved (IETF protocol assignments)'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['198.18.0.0', 15, 'ipv4', 'reserved (benchmarking)'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['::1', 128, 'ipv6', 'loopback'],
  // NAT64 and 6to4 embed IPv4 addresses, which may be private.
  ['64:ff9b::', 96, 'ipv6', 'NAT64 (an embedded IPv4 address)'],
  ['2002::', 16, 'ipv6', '6to4 (an embedded IPv4 address)'],
  ['fc00::', 7, 'ipv6', 'private (unique-local)'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['ff00::', 8, 'ipv6', 'multicast']
];

const lists = BLOCKED.map(([net, prefix, type, kind]) => {
  const list = new BlockList();
  list.addSubnet(net, prefix, type);
  return { list, type, kind };
});

/** Why `address` is refused (`loopback`, `private` …), or null when it may be reached. */
export function blockedKind(address: string): string | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const plain = mapped ?? address;
  const family = isIP(plain);
  if (!family) return 'not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const entry of lists)
    if (entry.type === type && entry.list.check(plain, type)) return entry.kind;
  return null;
}

/** Whether `address` (an IP literal; anything else counts) is one only `allowPrivate` reaches. */
export const isPrivateAddress = (address: string): boolean => blockedKind(address) !== null;
