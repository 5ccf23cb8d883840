import { BlockList, isIP, isIPv4 } from 'node:net';

/**
 * IPv4 ranges that are never fetched by default (IANA special-purpose registry, plus everything
 * that is not globally routable unicast).
 */
const REFUSED_V4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT shared address space
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation TEST-NET-1
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation TEST-NET-2
  ['203.0.113.0', 24], // documentation TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, including 255.255.255.255 broadcast
];

/**
 * Special ranges inside 2000::/3 (the only globally routed IPv6 unicast block). Everything
 * outside 2000::/3 (loopback, unspecified, link-local, ULA, multicast, site-local...) is refused
 * unless it embeds a public IPv4 address in a standard way.
 */
const REFUSED_V6_IN_GLOBAL: readonly [string, number][] = [
  ['2001::', 32], // Teredo: the embedded client address is obfuscated; never needed by a crawler
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID
  ['2001:20::', 28], // ORCHIDv2
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
];

const refusedV4 = new BlockList();
for (const [net, prefix] of REFUSED_V4) refusedV4.addSubnet(net, prefix, 'ipv4');

const globalV6 = new BlockList();
globalV6.addSubnet('2000::', 3, 'ipv6');

const refusedV6 = new BlockList();
for (const [net, prefix] of REFUSED_V6_IN_GLOBAL) refusedV6.addSubnet(net, prefix, 'ipv6');

/** Parses an IPv6 text form (with optional zone and trailing dotted quad) into 8 groups. */
function ipv6Groups(ip: string): number[] | null {
  let text = ip.replace(/%.*$/, '').toLowerCase();
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad?.[1]) {
    const bytes = quad[1].split('.').map(Number);
    const [a = 0, b = 0, c = 0, d = 0] = bytes;
    text = `${text.slice(0, -quad[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string | undefined): number[] =>
    part ? part.split(':').map((group) => Number.parseInt(group, 16)) : [];
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...new Array<number>(fill).fill(0), ...tail];
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

function v4FromGroups(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/**
 * The IPv4 address an IPv6 address stands for, when it embeds one in a standard way
 * (IPv4-mapped ::ffff:0:0/96, IPv4-compatible ::/96, NAT64 64:ff9b::/96, 6to4 2002::/16).
 */
export function embeddedIPv4(ip: string): string | null {
  if (isIP(ip) !== 6) return null;
  const g = ipv6Groups(ip);
  if (!g) return null;
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = g;
  const zeroPrefix = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroPrefix && (g5 === 0xffff || g5 === 0)) {
    // ::1 and :: are loopback/unspecified, not IPv4-compatible forms.
    if (g5 === 0 && g6 === 0 && g7 <= 1) return null;
    return v4FromGroups(g6, g7);
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4FromGroups(g6, g7);
  if (g0 === 0x2002) return v4FromGroups(g1 ?? 0, g2 ?? 0);
  return null;
}

/**
 * Whether an IP address is publicly routable unicast, i.e. safe for the crawler to connect to.
 * Refuses loopback, private, link-local, CGNAT, multicast, reserved, documentation and
 * benchmarking ranges of IPv4 and IPv6, and IPv6 forms that embed a refused IPv4 address.
 * Anything that is not an IP address at all is refused.
 *
 * @example isPublicAddress('93.184.216.34') // true
 * @example isPublicAddress('::ffff:10.0.0.1') // false
 */
export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip.replace(/%.*$/, ''));
  if (family === 4) return !refusedV4.check(ip, 'ipv4');
  if (family !== 6) return false;
  const bare = ip.replace(/%.*$/, '');
  const v4 = embeddedIPv4(bare);
  if (v4 !== null) return isPublicAddress(v4);
  return globalV6.check(bare, 'ipv6') && !refusedV6.check(bare, 'ipv6');
}

/** Decides which resolved addresses the fetcher may connect to. */
export interface AddressPolicy {
  /**
   * Whether connecting to `address` is allowed; `hostname` is the name it was resolved from (a
   * name listed in allowHosts may resolve to a private address).
   */
  allows(address: string, hostname?: string): boolean;
}

/**
 * Builds the connect-time policy: public addresses always, plus the exceptions in `allowHosts`
 * (host names, IP addresses or CIDR ranges, as in `QUARRY_ALLOW_HOSTS`). Throws a `TypeError` for
 * an entry that is a malformed CIDR range.
 *
 * @example createAddressPolicy(['127.0.0.1', '10.1.0.0/16', 'intranet.local']).allows('10.1.2.3') // true
 */
export function createAddressPolicy(allowHosts: readonly string[] = []): AddressPolicy {
  const allowedAddresses = new BlockList();
  const allowedNames = new Set<string>();
  for (const raw of allowHosts) {
    const entry = raw
      .trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, '');
    if (entry === '') continue;
    const cidr = /^(.+)\/(\d{1,3})$/.exec(entry);
    if (cidr?.[1] && cidr[2]) {
      const family = isIP(cidr[1]);
      const prefix = Number(cidr[2]);
      if (family === 0 || prefix > (family === 4 ? 32 : 128))
        throw new TypeError(`bad CIDR range in allowHosts: ${raw}`);
      allowedAddresses.addSubnet(cidr[1], prefix, family === 4 ? 'ipv4' : 'ipv6');
    } else if (isIP(entry) !== 0) {
      allowedAddresses.addAddress(entry, isIPv4(entry) ? 'ipv4' : 'ipv6');
    } else {
      allowedNames.add(entry.replace(/\.$/, ''));
    }
  }
  const addressAllowed = (address: string): boolean => {
    const family = isIP(address);
    if (family === 0) return false;
    if (allowedAddresses.check(address, family === 4 ? 'ipv4' : 'ipv6')) return true;
    const v4 = embeddedIPv4(address);
    return v4 !== null && allowedAddresses.check(v4, 'ipv4');
  };
  return {
    allows(address, hostname) {
      const bare = address.replace(/%.*$/, '');
      if (isPublicAddress(bare) || addressAllowed(bare)) return true;
      if (hostname === undefined) return false;
      const name = hostname
        .toLowerCase()
        .replace(/^\[|\]$/g, '')
        .replace(/\.$/, '');
      return allowedNames.has(name);
    },
  };
}
