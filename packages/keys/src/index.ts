export * from './key-format.js';
export * from './redis-key-store.js';
export * from './sqlite-key-store.js';
