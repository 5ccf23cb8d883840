export * from './options.js';
export * from './router.js';
export * from './stats.js';
