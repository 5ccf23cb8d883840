import { createRequire } from 'node:module';

type O200k = typeof import('gpt-tokenizer/encoding/o200k_base');

/** No text is special: `<|endoftext|>` in a page is counted as the characters it is. */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * The encoding, loaded at the first count: its 200,000 merges take about 35 MB of heap (70 MB of
 * memory), which every process serving the API or MCP held from its start, counting or not (an
 * idle `quarry serve` took 243 MB). Loaded through `require` (the package ships CommonJS beside its
 * modules) so that counting stays synchronous; the first count takes a few hundred milliseconds more.
 */
let o200k: O200k | undefined;

function encoding(): O200k {
  o200k ??= createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as O200k;
  return o200k;
}

/**
 * Number of tokens of `text` in OpenAI's `o200k_base` encoding (GPT-4o and later), the unit of
 * every `max_tokens` budget. Other models' tokenizers differ by a few percent, so a budget should
 * keep some headroom.
 */
export function countTokens(text: string): number {
  return text === '' ? 0 : encoding().countTokens(text, AS_PLAIN_TEXT);
}
