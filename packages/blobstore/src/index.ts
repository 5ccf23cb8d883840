export * from './file-blob-store.js';
