export * from './sqlite-index.js';
