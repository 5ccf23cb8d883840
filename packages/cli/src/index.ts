export { parseImportLine } from './commands/import-line.js';
export { type ImportSummary, importJsonl } from './commands/importer.js';
export { main } from './main.js';
export { DATA_LAYOUT, openIndex, openServices, type Services } from './runtime.js';
