export * from './odf.js';
export * from './pdf.js';
export * from './redis.js';
export * from './servers.js';
export * from './site.js';
