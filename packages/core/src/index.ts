export * from './config.js';
export * from './errors.js';
export * from './lang.js';
export * from './query-ast.js';
export * from './search-index.js';
export * from './time.js';
export * from './types.js';
export * from './url.js';
