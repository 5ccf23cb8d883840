import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import type { AddressPolicy } from './address-policy.js';
import { BlockedAddressError, nonRetryable } from './errors.js';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** The resolver the guard asks (dns.lookup: the system resolver, /etc/hosts included). */
export type Resolver = (
  hostname: string,
  options: { family: number; hints: number; all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** The `lookup` signature `net.connect` accepts. */
export type GuardedLookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/**
 * A `lookup` for `net.connect` that resolves a name and keeps only the addresses the policy
 * allows. Because the check runs inside connect on the very addresses the socket will use, a
 * DNS answer that changes between a check and the connection (DNS rebinding) cannot get through.
 */
export function createGuardedLookup(policy: AddressPolicy, resolve: Resolver = dns.lookup): GuardedLookup {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    resolve(hostname, { family, hints: options.hints ?? 0, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const allowed = addresses.filter((entry) => policy.allows(entry.address, hostname));
      const first = allowed[0];
      if (!first) {
        return callback(new BlockedAddressError(hostname, addresses[0]?.address ?? hostname), []);
      }
      if (options.all) return callback(null, allowed);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Ports browsers refuse to fetch (Fetch standard "bad port"): pointing a crawler at them is a
 * way to talk to mail, IRC or other services through a plain HTTP request.
 */
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/**
 * Parses and vets a URL before any connection: absolute http(s) only, at most `maxUrlLength`
 * characters, no bad port, and a literal IP host must pass the policy here because `lookup` is
 * never called for it. Returns the URL without its fragment.
 */
export function vetUrl(input: string, policy: AddressPolicy, maxUrlLength: number): URL {
  if (input.length > maxUrlLength) throw nonRetryable('url_too_long', `URL longer than ${maxUrlLength} characters`);
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw nonRetryable('bad_url', 'not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw nonRetryable('unsupported_scheme', `unsupported URL scheme: ${url.protocol}`);
  }
  url.hash = '';
  if (url.href.length > maxUrlLength) throw nonRetryable('url_too_long', `URL longer than ${maxUrlLength} characters`);
  if (url.hostname === '') throw nonRetryable('bad_url', 'URL has no host');
  if (url.port !== '' && BAD_PORTS.has(Number(url.port))) throw nonRetryable('bad_url', `refusing port ${url.port}`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !policy.allows(host)) {
    throw new BlockedAddressError(host, host);
  }
  return url;
}

/**
 * Asks ahead of any crawl whether the policy would refuse every address of a URL's host (the check
 * the connection itself makes later): resolves to the first refused address, or null when some
 * address is allowed, the URL is not http(s), or the name does not resolve (the crawl will say so).
 *
 * @example await refusedAddress('http://127.0.0.1:8900/', createAddressPolicy()) // '127.0.0.1'
 */
export async function refusedAddress(
  url: string,
  policy: AddressPolicy,
  resolve: Resolver = dns.lookup,
): Promise<string | null> {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
  if (isIP(host) !== 0) return policy.allows(host) ? null : host;
  const addresses = await new Promise<LookupAddress[]>((done) => {
    resolve(host, { family: 0, hints: 0, all: true }, (error, found) => done(error ? [] : found));
  });
  const first = addresses[0];
  if (!first || addresses.some((entry) => policy.allows(entry.address, host))) return null;
  return first.address;
}
