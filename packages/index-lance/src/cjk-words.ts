import type { IndexQuery, QueryNode, TermNode } from '@quarry/core';
import { MAX_QUERY_WORDS } from '@quarry/query';
import { hasCjk, hasUnspacedScript, isJapanese, type JapaneseWord, japaneseWords, tokenize } from '@quarry/text';

/**
 * The query with its unquoted Chinese and Japanese runs split into words (and those of Thai, Lao,
 * Khmer and Myanmar, into their dictionary's words). Those scripts write words without spaces, so
 * the parser keeps `北京天气` or a whole typed question (`今天北京的天气怎么样`) as one word, which
 * the index (character pairs, see `bigramQueryTokens`) would find only as that exact run of
 * characters. Here each such word of the query becomes the words `Intl.Segmenter` finds in it
 * (DESIGN.md: segmented on the query side):
 * - one-character words in a row are one word (the segmenter's dictionary lacks `互联网`, which it
 *   gives as `互`, `联`, `网`), and one at either end of a run belongs to the word beside it
 *   (`计算机` comes as `计算`, `机`); one alone between two words (`的`, `是`, `の`, `は`: particles
 *   and function words, mostly) is left out;
 * - letters and digits inside the run stay words of their own (`iPhone手机` → `iphone`, `手机`),
 *   but a number and the characters written onto it (`3月9日`, `2024年`, `第5章`, `5个`) are one
 *   word, matched as typed (see `numberRun`);
 * - `match=all`: every word required, anywhere in the page (`北京天气` → `北京` AND `天气`), each
 *   matched as the phrase of its character pairs; quote the run (`"北京天气"`) to require it as typed;
 * - `match=any`: each word's character pairs optional (`共和国` → `共和`, `和国`), so pages holding
 *   more of the question's words, and rarer ones, rank first (BM25); a number's word stays whole.
 * - `intitle:北京的天气`: its words, each required in the title, in either mode.
 * Phrases, exclusions and OR groups are left as typed, but for the spaces between Chinese or
 * Japanese characters in a phrase (see {@link unspacedPhrases}) and a Japanese word's forms in an OR
 * group (see {@link japaneseAlternatives}). At most the parser's
 * `MAX_QUERY_WORDS` words come out of the runs (a pasted page of Chinese text gives thousands): the
 * first ones.
 */
export function splitCjkWords(asked: IndexQuery): IndexQuery {
  const query = japaneseAlternatives(unspacedPhrases(asked));
  const root = query.query.root;
  if (!root) return query;
  const children = root.type === 'and' ? root.children : root.type === 'term' ? [root] : null;
  if (!children?.some(isCjkWord)) return query;
  const any = query.match === 'any';
  const words = new Set<string>();
  const split: QueryNode[] = [];
  for (const child of children) {
    if (!isCjkWord(child)) {
      split.push(child);
      continue;
    }
    // `intitle:` words stay required, each in the title (as pairs they would match less).
    const optional = any && child.field === 'any';
    // A Japanese word may be any of several forms (`読む`: 読む, 読ま, 読み…; see japaneseWords).
    for (const { forms } of runWords(child.text)) {
      const terms: TermNode[] = [];
      for (const form of optional ? forms.flatMap(pairs) : forms) {
        const key = `${child.field}:${form}`;
        if (words.has(key) || words.size >= MAX_QUERY_WORDS) continue;
        words.add(key);
        terms.push({ type: 'term', text: form, field: child.field });
      }
      if (optional || terms.length < 2) split.push(...terms);
      else split.push({ type: 'or', children: terms });
    }
  }
  if (split.length === 1) return { ...query, query: { ...query.query, root: split[0]! } };
  return { ...query, query: { ...query.query, root: { type: 'and', children: split } } };
}

/**
 * The query with each Japanese word of an OR group asked as any of its forms, as it is outside one
 * (`食べる OR 飲む` → 食べる, 食べ, 飲む, 飲ま, 飲み…; see japaneseWords). A side of several words
 * is left as typed, as Chinese ones are.
 */
function japaneseAlternatives(query: IndexQuery): IndexQuery {
  const root = query.query.root;
  if (!root || (root.type !== 'or' && root.type !== 'and')) return query;
  const widen = (node: QueryNode): QueryNode => {
    if (node.type !== 'or') return node;
    const children = node.children.flatMap((child): QueryNode[] => {
      if (child.type !== 'term' || !isJapanese(child.text)) return [child];
      const words = runWords(child.text);
      if (words.length !== 1 || words[0]!.forms.length < 2) return [child];
      return words[0]!.forms.map((text) => ({ ...child, text }));
    });
    return children.length === node.children.length ? node : { ...node, children };
  };
  let widened: QueryNode = root;
  if (root.type === 'or') widened = widen(root);
  else {
    const children = root.children.map(widen);
    if (children.some((child, i) => child !== root.children[i])) widened = { ...root, children };
  }
  return widened === root ? query : { ...query, query: { ...query.query, root: widened } };
}

/** A Chinese or Japanese character (not Korean, which is written with spaces), a space on either side. */
const SPACED_HAN_KANA =
  /(?<=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc\u3005])\s+(?=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc\u3005])/gu;

/**
 * The query with each phrase that has spaces between Chinese or Japanese characters (`"人工 智能"`,
 * `"味噌 ラーメン"`) asked as written without them, or as typed: those scripts are written without
 * spaces, and the index's character pairs of `人工智能` (`人工 工智 智能`) are not those of the words
 * apart (`人工 工 智能`), so such a phrase found only pages spacing the words as typed. Spaces beside
 * letters or digits are left: the index reads `AI 人工` as it reads `AI人工`. Korean is spaced.
 */
export function unspacedPhrases(query: IndexQuery): IndexQuery {
  const root = query.query.root;
  if (!root) return query;
  const unspaced = withoutSpaces(root);
  return unspaced === root ? query : { ...query, query: { ...query.query, root: unspaced } };
}

function withoutSpaces(node: QueryNode): QueryNode {
  switch (node.type) {
    case 'phrase': {
      const text = node.text.replace(SPACED_HAN_KANA, '');
      return text === node.text ? node : { type: 'or', children: [{ ...node, text }, node] };
    }
    case 'term':
      return node;
    case 'not': {
      const child = withoutSpaces(node.child);
      return child === node.child ? node : { ...node, child };
    }
    case 'and':
    case 'or': {
      const children = node.children.map(withoutSpaces);
      if (children.every((child, i) => child === node.children[i])) return node;
      // A phrase's two ways as sides of the OR it is one of.
      const sides =
        node.type === 'or' ? children.flatMap((child) => (child.type === 'or' ? child.children : [child])) : children;
      return { ...node, children: sides };
    }
  }
}

function isCjkWord(node: QueryNode): node is TermNode {
  return node.type === 'term' && hasUnspacedScript(node.text);
}

/** The words of a typed word holding CJK runs (see {@link splitCjkWords}); itself when it has none. */
function runWords(text: string): JapaneseWord[] {
  const words: JapaneseWord[] = [];
  // Each run between punctuation on its own: characters on either side of a comma are not a word.
  for (const chunk of text.split(/[^\p{L}\p{N}\p{M}]+/u)) {
    const tokens = tokenize(chunk);
    for (const item of isJapanese(chunk) ? japaneseWords(tokens) : [{ tokens }]) {
      if (!('tokens' in item)) {
        words.push(item);
        continue;
      }
      const written: string[] = [];
      segmentWords(item.tokens, written);
      for (const word of written) words.push({ text: word, forms: [word] });
    }
  }
  return words.length > 0 ? words : [{ text, forms: [text] }];
}

/** Adds the words of one run's tokens, all written in a row (see {@link runWords}), to `words`. */
function segmentWords(tokens: readonly string[], words: string[]): void {
  // One-character words in a row as one (their places in `joined`).
  const parts: string[] = [];
  const joined = new Set<number>();
  let singles = '';
  const pushSingles = () => {
    if (singles) joined.add(parts.push(singles) - 1);
    singles = '';
  };
  for (const token of tokens) {
    if (isOneCjkChar(token)) {
      singles += token;
      continue;
    }
    pushSingles();
    parts.push(token);
  }
  pushSingles();
  // A lone character at either end belongs to its neighbour (`计算` `机`); beside a word of its
  // script it is a particle (`北京` `的` `天气`), left out; with only letters beside it, it is a
  // word of its own (`A股`); beside a number, it is its unit or counter, in one word with it.
  for (let i = 0; i < parts.length; i++) {
    const end = numberRun(parts, joined, i);
    if (end > i + 1) {
      words.push(parts.slice(i, end).join(''));
      i = end - 1;
      continue;
    }
    const part = parts[i]!;
    const lone = isOneCjkChar(part) && parts.length > 1;
    const [before, after] = [parts[i - 1], parts[i + 1]];
    if (!lone) words.push(part);
    else if (i === 0 && hasCjk(after!)) parts[1] = part + after;
    else if (i === parts.length - 1 && hasCjk(before!)) words[words.length - 1] += part;
    else if (!hasCjk(before ?? '') && !hasCjk(after ?? '')) words.push(part);
  }
}

/**
 * Where a number's word that starts at `parts[i]` ends (`i` when none starts there): a number with
 * the characters written onto it, a unit or counter after it (`2024年`, `100元`, `3点半`), and so on
 * (`3月9日`, `2024年3月9日`), after an ordinal's character at its start (`第5章`, not after a
 * word: `价格是5元` is 价格 and 5元). The index holds `3月9日` as the tokens 3, 月, 9, 日; as words
 * of their own, each was matched anywhere in a page (a page about `3月9日` ranked ninth, below
 * pages holding a 3, a 9 and the two characters apart); as one word, they are matched in a row.
 * A unit before a word of its run is left out, as a particle is (`3月9日上午` is 3月9 and 上午,
 * `5个苹果` 5 and 苹果): the index holds it in a pair with the word's first character (`日上`).
 */
function numberRun(parts: readonly string[], joined: ReadonlySet<number>, i: number): number {
  const number = (at: number) => at < parts.length && isNumber(parts[at]!);
  const unit = (at: number) => joined.has(at) && (at === parts.length - 1 || number(at + 1));
  const opens = number(i) || (joined.has(i) && !hasCjk(parts[i - 1] ?? '') && number(i + 1));
  if (!opens) return i;
  let end = i + 1;
  while (end < parts.length && (number(end - 1) ? unit(end) : number(end))) end++;
  return end > i + 1 ? end : i;
}

/** A word of letters and digits holding a digit (`2024`, `v2`). */
function isNumber(part: string): boolean {
  return !hasCjk(part) && /\p{Nd}/u.test(part);
}

function isOneCjkChar(token: string): boolean {
  return hasCjk(token) && Array.from(token).length === 1;
}

/**
 * A CJK word's character pairs (itself when it is one character); any other word as it is, and a
 * number's word (`3月9日`, see numberRun): asked as its pairs, a number's pairs with its unit
 * (`3月`) are no tokens of the index.
 */
function pairs(word: string): string[] {
  const chars = Array.from(word);
  if (!hasCjk(word) || chars.length < 2 || /\p{Nd}/u.test(word)) return [word];
  return chars.slice(1).map((char, i) => chars[i]! + char);
}
