export * from './format.js';
export * from './limits.js';
export * from './parser.js';
