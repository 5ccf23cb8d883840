export * from './app.js';
export * from './deps.js';
export * from './mcp-backend.js';
export * from './metrics.js';
export { startMetricsServer } from './metrics-route.js';
export * from './openapi.js';
export * from './problem.js';
export * from './server.js';
