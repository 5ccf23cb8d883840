export * from './contract.js';
export * from './fixtures.js';
export * from './ranking.js';
