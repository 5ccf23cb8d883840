export * from './extract.js';
export * from './filetypes.js';
export * from './types.js';
