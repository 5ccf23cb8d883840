import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

/** No text is special: `<|endoftext|>` in a page is counted as the characters it is. */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Number of tokens of `text` in OpenAI's `o200k_base` encoding (GPT-4o and later), the unit of
 * every `max_tokens` budget. Other models' tokenizers differ by a few percent, so a budget should
 * keep some headroom.
 */
export function countTokens(text: string): number {
  return text === '' ? 0 : countO200k(text, AS_PLAIN_TEXT);
}
