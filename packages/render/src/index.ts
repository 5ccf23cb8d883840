export * from './browser-pool.js';
export * from './find-chromium.js';
export * from './needs-rendering.js';
