export * from './distributed.js';
export * from './fingerprints.js';
export * from './hosts.js';
export * from './options.js';
export * from './reasons.js';
export * from './redis-database.js';
export * from './sqlite/open.js';
export * from './types.js';
