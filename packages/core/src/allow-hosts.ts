import { isIP } from 'node:net';

/** A DNS host name: dot-separated labels of letters, digits, `-` and `_`, at most 253 characters. */
const HOST_NAME =
  /^(?=.{1,253}\.?$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i;

/** Whether `value` is a DNS host name; dotted numbers that are no IPv4 address (999.1.1.1) are a typo, not one. */
export function isHostName(value: string): boolean {
  return HOST_NAME.test(value) && !/^[\d.]+$/.test(value);
}

/**
 * Why an entry of `QUARRY_ALLOW_HOSTS` is unusable, or null when it is a host name, an IP address
 * (IPv6 optionally in brackets) or a CIDR range whose prefix fits its family.
 *
 * @example allowHostProblem('10.0.0.0/8') // null
 * @example allowHostProblem('999.1.1.1/99') // 'is not a CIDR range: 999.1.1.1 is not an IP address'
 */
export function allowHostProblem(entry: string): string | null {
  const bare = entry.replace(/^\[(.*)\]$/, '$1');
  const cidr = /^(.+)\/(\d{1,3})$/.exec(bare);
  if (cidr?.[1] && cidr[2]) {
    const family = isIP(cidr[1]);
    if (family === 0) return `is not a CIDR range: ${cidr[1]} is not an IP address`;
    const maxPrefix = family === 4 ? 32 : 128;
    if (Number(cidr[2]) > maxPrefix) return `is not a CIDR range: the prefix must be at most ${maxPrefix}`;
    return null;
  }
  if (isIP(bare) !== 0) return null;
  // Four dotted numbers that are not an IPv4 address (999.1.1.1) are a typo, not a host name.
  if (/^[\d.]+$/.test(bare)) return 'is not a valid IP address';
  if (!HOST_NAME.test(bare)) return 'is not a host name, an IP address or a CIDR range such as 10.0.0.0/8';
  return null;
}
