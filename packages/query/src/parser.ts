import {
  type FiletypeOperatorValue,
  filetypeFamily,
  normalizeSite,
  type ParsedQuery,
  type PhraseNode,
  type QueryNode,
  type TermNode,
  ValidationError,
} from '@quarry/core';
import { formatNode, formatQuery } from './format.js';
import { sanitizeQuery, type Token, tokenize } from './lexer.js';
import { MAX_QUERY_CLAUSES, MAX_QUERY_LENGTH, MAX_QUERY_WORDS } from './limits.js';

// A word or phrase made only of punctuation or stray marks (`...`, `!!!`, `=`) matches nothing in
// any backend's tokenizer, so it is dropped rather than sent on as a clause that can never match.
const SEARCHABLE = /[\p{L}\p{N}\p{So}\p{Extended_Pictographic}]/u;
const SHOWN_VALUE_CODE_POINTS = 40;
const TOO_LONG = `q is too long: at most ${MAX_QUERY_LENGTH} characters are allowed.`;

/** Slots of the implicit AND, in query order: an OR group of positive clauses, or an exclusion. */
type Slot =
  | { readonly kind: 'group'; readonly members: QueryNode[] }
  | { readonly kind: 'not'; readonly node: QueryNode };

function fail(message: string): never {
  throw new ValidationError(message, 'q');
}

function isTooLong(q: string): boolean {
  // A code point takes at most two UTF-16 units, so only lengths in between need counting.
  if (q.length <= MAX_QUERY_LENGTH) return false;
  if (q.length > 2 * MAX_QUERY_LENGTH) return true;
  let codePoints = 0;
  for (const _ of q) codePoints++;
  return codePoints > MAX_QUERY_LENGTH;
}

/** Echoes a user's value in an error message, shortened so a message stays readable. */
function shown(value: string): string {
  const codePoints = Array.from(value.slice(0, 2 * SHOWN_VALUE_CODE_POINTS));
  return codePoints.length > SHOWN_VALUE_CODE_POINTS
    ? `${codePoints.slice(0, SHOWN_VALUE_CODE_POINTS).join('')}…`
    : value;
}

function parseSite(value: string): string {
  if (value === '') fail('The site: operator needs a value, e.g. site:example.com.');
  const site = normalizeSite(value);
  if (site === null) fail(`The site: operator needs a host name such as example.com, not "${shown(value)}".`);
  return site;
}

function parseFiletype(value: string): FiletypeOperatorValue {
  if (value === '') fail('The filetype: operator needs a value: pdf, doc, ppt or xls.');
  // docx, odt, pptx... name their family: the index matches a family (FILETYPE_FAMILY), not a format.
  const filetype = filetypeFamily(value.toLowerCase().replace(/^\./, ''));
  if (filetype === null) {
    fail(
      `The filetype: operator accepts pdf, doc, ppt or xls (docx, pptx, xlsx, odt, odp, ods also work), not "${shown(value)}".`,
    );
  }
  return filetype;
}

/** The term or phrase a token stands for, or null when it holds nothing searchable. */
function clauseOf(token: Token): TermNode | PhraseNode | null {
  switch (token.kind) {
    case 'word':
      return SEARCHABLE.test(token.text) ? { type: 'term', text: token.text, field: 'any' } : null;
    case 'phrase':
      return SEARCHABLE.test(token.text) ? { type: 'phrase', text: token.text, field: 'any' } : null;
    case 'operator':
      if (token.value === '') {
        fail('The intitle: operator needs a value, e.g. intitle:report or intitle:"annual report".');
      }
      if (!SEARCHABLE.test(token.value)) fail('The intitle: operator needs a word or "phrase", e.g. intitle:report.');
      return { type: token.quoted ? 'phrase' : 'term', text: token.value, field: 'title' };
    case 'or':
      return null;
  }
}

/**
 * Removes structural duplicates (`"a b" "a b"`, `intitle:x intitle:x`, `-a -a`), keeping the first
 * in query order. A plain word said again stays: in a ranking by BM25 it is the query's term
 * frequency, and a long question or pasted paragraph that says `retrieval` three times is mostly
 * about retrieval (nDCG@10 on CISI's questions 0.3741 → 0.4114; an AND requires it once all the same).
 */
function dedupe(nodes: readonly QueryNode[], keepWords = true): QueryNode[] {
  const seen = new Set<string>();
  return nodes.filter((node) => {
    if (keepWords && node.type === 'term' && node.field === 'any') return true;
    const key = formatNode(node);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `keepWords`: a plain word said again stays (see dedupe); an OR group beside others keeps one. */
function combine(type: 'and' | 'or', nodes: readonly QueryNode[], keepWords = true): QueryNode | null {
  const children = dedupe(nodes, keepWords);
  if (children.length <= 1) return children[0] ?? null;
  return { type, children };
}

/** Whether a query is plain words: one, or several all required or all joined with OR. */
function isWordList(root: QueryNode): boolean {
  const word = (node: QueryNode) => node.type === 'term' && node.field === 'any';
  return word(root) || ((root.type === 'and' || root.type === 'or') && root.children.every(word));
}

/**
 * The distinct terms and phrases of a query (excluded ones included): a word said again (kept as
 * query term frequency, see dedupe) is no more work for a backend, so a pasted paragraph is not
 * refused for repeating its words.
 */
function countClauses(root: QueryNode): number {
  const seen = new Set<string>();
  const visit = (node: QueryNode, prefix: string): void => {
    switch (node.type) {
      case 'term':
      case 'phrase':
        seen.add(prefix + formatNode(node));
        return;
      case 'not':
        visit(node.child, `${prefix}-`);
        return;
      case 'and':
      case 'or':
        for (const child of node.children) visit(child, prefix);
    }
  };
  visit(root, '');
  return seen.size;
}

interface Collected {
  readonly slots: Slot[];
  readonly sites: string[];
  readonly filetypes: FiletypeOperatorValue[];
}

/** A token as an OR operand: a filter (`site:`, `filetype:`), a positive clause, an exclusion, or none. */
type SlotKind = 'filter' | 'clause' | 'exclusion' | 'other';

/** Whether a word, phrase or `intitle:` token holds something searchable (see {@link clauseOf}). */
function holdsWords(token: Exclude<Token, { kind: 'or' }>): boolean {
  return SEARCHABLE.test(token.kind === 'operator' ? token.value : token.text);
}

/** Walks the tokens once, grouping OR operands and pulling filters out. */
function collect(tokens: readonly Token[]): Collected {
  const collected: Collected = { slots: [], sites: [], filetypes: [] };
  // The OR group a following `OR` may extend: only while the previous slot is a positive clause.
  let openGroup: QueryNode[] | null = null;
  let orPending = false;
  // What came before the last `OR`: a filter there and a word after it (or the reverse) is an error.
  let previous: SlotKind = 'other';
  let afterOr: SlotKind | null = null;
  for (const token of tokens) {
    if (token.kind === 'or') {
      orPending = openGroup !== null;
      afterOr = previous;
      continue;
    }
    const isFilter = token.kind === 'operator' && token.name !== 'intitle';
    const kind: SlotKind = isFilter ? 'filter' : !holdsWords(token) ? 'other' : token.negated ? 'exclusion' : 'clause';
    if ((afterOr === 'filter' && kind === 'clause') || (afterOr === 'clause' && kind === 'filter')) {
      fail(
        'OR joins words and phrases; site: and filetype: restrict the whole query and cannot be one side of an OR (several site: or filetype: are already ORed).',
      );
    }
    // `velvet OR -training` read as `velvet -training` answered another query than the one asked.
    if (
      (afterOr === 'exclusion' && kind !== 'other') ||
      (kind === 'exclusion' && afterOr !== null && afterOr !== 'other')
    ) {
      fail(
        'OR joins words and phrases; an exclusion (-word) cannot be one side of an OR: write the words to find, OR-ed, and the exclusions beside them (`velvet OR satin -training`).',
      );
    }
    afterOr = null;
    previous = kind;
    if (token.kind === 'operator' && token.name !== 'intitle') {
      if (token.negated) {
        fail(
          token.name === 'site'
            ? 'Excluding a site (-site:) is not supported; use site: to restrict results to one.'
            : 'Excluding a file type (-filetype:) is not supported; use filetype: to restrict results to one.',
        );
      }
      if (token.name === 'site') collected.sites.push(parseSite(token.value));
      else collected.filetypes.push(parseFiletype(token.value));
      openGroup = null;
      orPending = false;
      continue;
    }
    const clause = clauseOf(token);
    if (clause === null) continue;
    if (token.negated) {
      collected.slots.push({ kind: 'not', node: clause });
      openGroup = null;
    } else if (orPending && openGroup !== null) {
      openGroup.push(clause);
    } else {
      openGroup = [clause];
      collected.slots.push({ kind: 'group', members: openGroup });
    }
    orPending = false;
  }
  return collected;
}

/**
 * Parses a search query (`q`, spec 4.1.1) into a tree plus its filters. Never throws anything but
 * a `ValidationError` (param `q`), for any input, and runs in time linear in the input.
 *
 * Rules (DESIGN.md "Query operators"):
 * - Words and phrases are ANDed; `A OR B` (upper-case `OR` only) binds tighter: `cats dogs OR
 *   wolves` is `and(cats, or(dogs, wolves))`. A leading, trailing or doubled `OR` is dropped.
 * - `"..."` is a phrase (unclosed: runs to the end; empty: ignored). `-word`, `-"phrase"` and
 *   `-intitle:x` exclude; a lone `-` is ignored; inner hyphens (`e-mail`) belong to the word.
 * - An exclusion cannot be an OR operand: an `OR` between one and a word, a phrase, a filter or
 *   another exclusion is a 400 (`a OR -b` read as `a -b` answered another query than the one asked).
 *   `site:` and `filetype:` apply to the whole query: an `OR` between one of them and a word or phrase
 *   is a 400 (between two of them it changes nothing: several are ORed anyway).
 * - `intitle:` makes a title-only term or phrase; `site:` hosts and `filetype:` values (docx, pptx,
 *   xlsx name their family) are pulled out into `sites` and `filetypes`, deduplicated and ORed.
 *   Excluding a site or file type is rejected. Other `name:value` words (`re:invent`, URLs) are
 *   ordinary words, kept as typed.
 * - Words or phrases of punctuation alone are dropped; so are duplicates, but for a plain word said
 *   again in an AND or in an OR that is the whole query (query term frequency, see dedupe).
 * - Rejected: an empty query; one longer than {@link MAX_QUERY_LENGTH} code points, as typed or
 *   in its canonical form (`formatQuery`); one of plain words with more than
 *   {@link MAX_QUERY_WORDS} of them, or any other with more than {@link MAX_QUERY_CLAUSES} terms
 *   and phrases (but one whose only operators are quotes is then read without them, as the prose
 *   of a pasted paragraph that quotes someone); one with only exclusions and no `site:` or `filetype:` (a positive operator makes
 *   `site:x.org -gitlab` valid: the site's pages without the word), unless `options.filtered` says
 *   the request restricts the pages another way (the API's `site` parameter); one with nothing searchable and no filter; an operator
 *   without a value; an invalid host or file type.
 * - `root` is null when the query holds filters alone (`site:x.org`).
 * @example parseQuery('cats -dogs site:example.com') // root and(cats, not(dogs)), sites ['example.com']
 */
export function parseQuery(q: string, options: { readonly filtered?: boolean } = {}): ParsedQuery {
  const filtered = options.filtered === true;
  if (typeof q !== 'string') fail('q must be a string');
  if (isTooLong(q)) fail(TOO_LONG);
  const clean = sanitizeQuery(q);
  if (clean.trim() === '') fail('q must not be empty');
  try {
    return parseClean(clean, filtered);
  } catch (err) {
    // A pasted paragraph that quotes someone ("Office of the Future") is prose, not a list of
    // phrases: past the operators' limit, a query whose only operators are quotes is read without them.
    if (!(err instanceof TooManyTerms) || !clean.includes('"')) throw err;
    const prose = parseClean(clean.replace(/"/g, ' '), filtered);
    if (prose.root === null || !isWordList(prose.root)) throw err;
    return prose;
  }
}

/** The error for a query over {@link MAX_QUERY_WORDS} or {@link MAX_QUERY_CLAUSES} (see parseQuery). */
class TooManyTerms extends ValidationError {}

/** {@link parseQuery} of a sanitized, non-empty query; `filtered`: the request filters outside `q`. */
function parseClean(clean: string, filtered: boolean): ParsedQuery {
  const { slots, sites, filetypes } = collect(tokenize(clean));

  const children = slots.map((slot) =>
    slot.kind === 'not' ? { type: 'not' as const, child: slot.node } : combine('or', slot.members, slots.length === 1),
  );
  const kept = children.filter((node) => node !== null);
  const hasFilter = sites.length > 0 || filetypes.length > 0;
  const positive = slots.some((slot) => slot.kind === 'group');
  // Exclusions under a filter (`site:x.org -gitlab`, or `-gitlab` with the `site` parameter) stay an
  // `and`, so every backend reads them as "the filtered pages, minus these" and never as a lone
  // `not` it cannot express.
  const root =
    !positive && (hasFilter || filtered) && kept.length > 0
      ? { type: 'and' as const, children: dedupe(kept) }
      : combine('and', kept);
  if (root === null && !hasFilter) fail('q has no words to search for');
  if (root !== null && !positive && !hasFilter && !filtered) {
    fail('q cannot contain only exclusions (-word): add a word, a phrase, site: or filetype: to search for.');
  }
  if (root !== null) {
    const clauses = countClauses(root);
    if (clauses > MAX_QUERY_WORDS || (clauses > MAX_QUERY_CLAUSES && !isWordList(root))) {
      throw new TooManyTerms(
        `q has too many terms: at most ${MAX_QUERY_WORDS} words, or ${MAX_QUERY_CLAUSES} words and phrases when it holds phrases, intitle:, exclusions or OR groups beside other words.`,
        'q',
      );
    }
  }
  const parsed: ParsedQuery = { root, sites: [...new Set(sites)], filetypes: [...new Set(filetypes)] };
  // NFKC, punycode hosts or a closing quote can make the canonical form longer than what was
  // typed; bounding it keeps every accepted query round-trippable through formatQuery.
  if (isTooLong(formatQuery(parsed))) fail(TOO_LONG);
  return parsed;
}
