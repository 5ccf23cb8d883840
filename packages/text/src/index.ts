export * from './forms.js';
export * from './joined.js';
export * from './segment.js';
export * from './simhash.js';
export * from './snippet.js';
export * from './stem.js';
export * from './stop-words.js';
export * from './tokenize.js';
