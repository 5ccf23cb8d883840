import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { AddressPolicy } from '@quarry/fetcher';

/**
 * The SSRF rule for requests a rendered page makes: http(s) only, and every address the host
 * resolves to must pass the crawler's address policy. (Chromium resolves names itself, so this is
 * checked before each request is allowed; the static fetcher additionally checks at connect time.)
 */
export function browserRequestGuard(policy: AddressPolicy): (url: string) => Promise<boolean> {
  return async (url) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0) return policy.allows(host, host);
    try {
      const addresses = await lookup(host, { all: true, verbatim: true });
      return addresses.length > 0 && addresses.every((a) => policy.allows(a.address, host));
    } catch {
      return false;
    }
  };
}
