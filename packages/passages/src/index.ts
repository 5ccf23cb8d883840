export { ASIDE_MIN_CHARS, closePassageThread, selectPassagesAside } from './aside.js';
export { CHUNK_DEFAULTS, type Chunk, type ChunkOptions, chunkText } from './chunk.js';
export {
  type MarkdownHeading,
  type MarkdownLine,
  type MarkdownSource,
  markdownFromText,
  markdownHeadings,
  markdownLines,
  pageMarkdown,
  stripInlineMarkup,
} from './markdown.js';
export { PASSAGE_BOUNDS, type Passage, type PassageRequest, selectPassages } from './passages.js';
export { type Portion, type PortionRequest, pagePortion } from './portion.js';
export { queryTerms, scoreChunks } from './score.js';
export { countTokens } from './tokens.js';
