export * from './snippet.js';
export * from './stop-words.js';
export * from './tokenize.js';
