export * from './pdf.js';
export * from './servers.js';
export * from './site.js';
