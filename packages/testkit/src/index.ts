export * from './servers.js';
export * from './site.js';
