/** Hosts that are this machine, whatever the configuration. */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '[::1]', '::1']);
/** Listen addresses that name no host an Origin could carry. */
const WILDCARD_HOSTS: ReadonlySet<string> = new Set(['0.0.0.0', '::', '[::]', '']);

/**
 * Whether a request with this `Origin` may use `/mcp` (the MCP spec's DNS rebinding defence): no
 * Origin (not a browser), a loopback origin (`localhost`, `127.x.x.x`, `[::1]`), or the host the API
 * is configured to listen on (`QUARRY_HOST`, unless a wildcard address). Anything else, including
 * `null` and malformed origins, is foreign.
 */
export function originAllowed(origin: string | undefined, configuredHost: string): boolean {
  if (origin === undefined || origin === '') return true;
  let hostname: string;
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    hostname = url.hostname.toLowerCase();
  } catch {
    return false;
  }
  if (LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)) return true;
  const configured = configuredHost.trim().toLowerCase();
  return !WILDCARD_HOSTS.has(configured) && (hostname === configured || hostname === `[${configured}]`);
}
