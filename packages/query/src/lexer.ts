/** Names that act as operators before a colon; anything else with a colon (`re:invent`, a URL) is a word. */
export type OperatorName = 'site' | 'intitle' | 'filetype';

/**
 * One lexical unit of a query. The lexer only knows syntax: it never rejects input, and leaves
 * checking values (hosts, file types, empty values) to the parser.
 */
export type Token =
  | { readonly kind: 'or' }
  | { readonly kind: 'word'; readonly text: string; readonly negated: boolean }
  | { readonly kind: 'phrase'; readonly text: string; readonly negated: boolean }
  | {
      readonly kind: 'operator';
      readonly name: OperatorName;
      /** As typed after the colon, or the inner text of a quoted value; '' when missing. */
      readonly value: string;
      readonly quoted: boolean;
      readonly negated: boolean;
    };

const SOFT_HYPHEN = /\u00AD/g;
// Typographic double quotes that users (and phone keyboards) type for phrases; full-width `＂`
// already became `"` under NFKC.
const FANCY_QUOTES = /[\u201C\u201D\u201E\u201F\u301D\u301E\u301F]/g;
// Whitespace, control and invisible format characters all separate words. The one exception is a
// zero-width joiner inside an emoji sequence (👨‍👩‍👧), which is part of the emoji: the first
// alternative matches it without a capture group so the replacer keeps it.
const SEPARATORS =
  /(?<=\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F)\u200D(?=\p{Extended_Pictographic})|([\s\p{Z}\p{Cc}\p{Cs}\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF])/gu;
const OPERATOR_PREFIX = /^(site|intitle|filetype):/i;
const LEADING_DASHES = /^-+/;
// A comma or semicolon typed between words without a space (`obama,sudan`) lists them; between
// digits it is part of a number (`1,000`).
const LIST_MARK = /(?<!\d)[,;]|[,;](?!\d)/;
const SPACES = / +/g;

/**
 * Unicode hygiene applied before lexing: soft hyphens are removed, NFKC (full-width letters, colons
 * and spaces become ASCII), smart quotes become `"`, and every kind of whitespace, control character, lone surrogate
 * or zero-width character becomes a plain space. Linear in the input length.
 */
export function sanitizeQuery(q: string): string {
  // Soft hyphens go before NFKC: deleting one later could join a letter and a combining mark into
  // a string that is no longer normalized, and parsing the formatted query would then differ.
  return q
    .replace(SOFT_HYPHEN, '')
    .normalize('NFKC')
    .replace(FANCY_QUOTES, '"')
    .replace(SEPARATORS, (match: string, separator: string | undefined) => (separator === undefined ? match : ' '));
}

/** Reads a phrase whose opening quote sits just before `from`; an unclosed phrase runs to the end. */
function readPhrase(s: string, from: number): { text: string; next: number } {
  const close = s.indexOf('"', from);
  const end = close === -1 ? s.length : close;
  const text = s.slice(from, end).replace(SPACES, ' ').trim();
  return { text, next: close === -1 ? s.length : close + 1 };
}

/**
 * Splits a sanitized query (see {@link sanitizeQuery}) into tokens in one left-to-right pass.
 * A word ends at a space or a quote; a quote always opens or closes a phrase, so words never hold
 * quotes. A leading dash negates (`-draft`); a word after two or more dashes is a command-line
 * option searched as typed (`--amend`); a word of dashes alone is dropped unless a phrase follows it
 * directly (`-"a b"`). Words joined by a comma or semicolon (`obama,sudan`) are separate words,
 * unless digits stand on both sides (`1,000`). `OR` is an operator only in upper case and on its own.
 */
export function tokenize(s: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === ' ') {
      i++;
      continue;
    }
    if (c === '"') {
      const phrase = readPhrase(s, i + 1);
      tokens.push({ kind: 'phrase', text: phrase.text, negated: false });
      i = phrase.next;
      continue;
    }
    const start = i;
    while (i < s.length && s[i] !== ' ' && s[i] !== '"') i++;
    const word = s.slice(start, i);
    if (word === 'OR') {
      tokens.push({ kind: 'or' });
      continue;
    }
    const body = word.replace(LEADING_DASHES, '');
    // One dash excludes (`-draft`); two or more before a word are a command-line option
    // (`git commit --amend`), searched as the word.
    if (word.length - body.length >= 2 && body !== '' && !OPERATOR_PREFIX.test(body) && s[i] !== '"') {
      tokens.push({ kind: 'word', text: word, negated: false });
      continue;
    }
    const negated = body.length !== word.length;
    const quoteFollows = s[i] === '"';
    const operator = OPERATOR_PREFIX.exec(body);
    if (operator) {
      const name = (operator[1] ?? '').toLowerCase() as OperatorName;
      let value = body.slice(operator[0].length);
      const quoted = value === '' && quoteFollows;
      if (quoted) {
        const phrase = readPhrase(s, i + 1);
        value = phrase.text;
        i = phrase.next;
      }
      tokens.push({ kind: 'operator', name, value, quoted, negated });
    } else if (body !== '' && !negated) {
      for (const part of body.split(LIST_MARK)) if (part !== '') tokens.push({ kind: 'word', text: part, negated });
    } else if (body !== '') {
      // An exclusion stays whole: `-obama,sudan` leaves out the pair, the narrower reading.
      tokens.push({ kind: 'word', text: body, negated });
    } else if (quoteFollows) {
      const phrase = readPhrase(s, i + 1);
      tokens.push({ kind: 'phrase', text: phrase.text, negated: true });
      i = phrase.next;
    }
  }
  return tokens;
}
