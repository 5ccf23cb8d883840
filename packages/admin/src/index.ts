export { SESSION_COOKIE } from './guard.js';
export { type AdminHost, type AdminHosts, collectHosts, parseHostsQuery } from './hosts.js';
export { ADMIN_DEFAULTS, type AdminRouterOptions } from './options.js';
export { createAdminRouter } from './router.js';
export { type AdminStats, type BackoffStats, collectStats, type HostBackingOff, StatsTimeoutError } from './stats.js';
