export * from './analysis-version.js';
export * from './fts-query.js';
export * from './lance-index.js';
export * from './maintenance.js';
