import { describe, expect, it } from '@jest/globals';
import { FILETYPE_OPERATOR_VALUES, type ParsedQuery, type QueryNode, ValidationError } from '@quarry/core';
import { formatQuery } from './format.js';
import { MAX_QUERY_CLAUSES, MAX_QUERY_WORDS } from './limits.js';
import { parseQuery } from './parser.js';

const SEED = 0x5eed_2024;
const CASES = 5_000;
// Heavy in what breaks parsers: quotes, dashes, colons, OR, spaces, operators, CJK, emoji and
// invisible or combining characters.
const FRAGMENTS = [
  '"',
  '"',
  '“',
  '”',
  '＂',
  '-',
  '-',
  '--',
  ':',
  '：',
  ' ',
  ' ',
  '  ',
  '\u3000',
  '\t',
  'OR',
  'OR',
  'or',
  'site:',
  'SITE:',
  'intitle:',
  'InTitle:',
  'filetype:',
  'pdf',
  'docx',
  'exe',
  'x.org',
  'a.com',
  'a',
  'b',
  'cat',
  'e-mail',
  're:invent',
  'c++',
  '10:30',
  '猫',
  '搜索引擎',
  'кошка',
  '🐱',
  '👨‍👩‍👧',
  '\u200D',
  '\u200B',
  '\u0000',
  '\u0007',
  '\u00AD',
  '\u0301',
  '\uD800',
  '!',
  '.',
  '...',
  '㌀',
  'ﷺ',
];

/** mulberry32: a tiny seeded PRNG, so every run tests the same strings. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function randomQuery(random: () => number): string {
  const length = Math.floor(random() * 24);
  let q = '';
  for (let i = 0; i < length; i++) q += FRAGMENTS[Math.floor(random() * FRAGMENTS.length)] ?? '';
  return q;
}

/**
 * Checks the shape rules of one node, pushing what is wrong to `problems`, and returns how many
 * terms and phrases it holds. Plain checks rather than `expect` keep 5,000 cases fast.
 */
function checkNode(node: QueryNode, parent: 'root' | 'and' | 'or' | 'not', problems: string[]): number {
  switch (node.type) {
    case 'term':
    case 'phrase':
      if (node.text === '' || node.text !== node.text.trim() || node.text.includes('"')) problems.push('bad text');
      if (node.type === 'term' ? /\s/.test(node.text) : /\s\s/.test(node.text)) problems.push('bad spacing');
      return 1;
    case 'not':
      if (parent !== 'and') problems.push('not outside and');
      if (node.child.type !== 'term' && node.child.type !== 'phrase') problems.push('not over a group');
      return checkNode(node.child, 'not', problems);
    case 'and':
    case 'or':
      // One exception: a root `and` of exclusions alone, under a site:/filetype: filter (checked below).
      if (node.children.length < 2 && !(parent === 'root' && node.type === 'and' && !hasPositiveClause(node))) {
        problems.push(`${node.type} with fewer than 2 children`);
      }
      if (!(parent === 'root' || (node.type === 'or' && parent === 'and'))) problems.push(`nested ${node.type}`);
      return node.children.reduce((sum, child) => sum + checkNode(child, node.type, problems), 0);
  }
}

function hasPositiveClause(node: QueryNode): boolean {
  if (node.type === 'term' || node.type === 'phrase') return true;
  if (node.type === 'not') return false;
  return node.children.some(hasPositiveClause);
}

function invariantProblems(parsed: ParsedQuery): string[] {
  const problems: string[] = [];
  if (parsed.root === null) {
    if (parsed.sites.length + parsed.filetypes.length === 0) problems.push('null root without filters');
  } else {
    const clauses = checkNode(parsed.root, 'root', problems);
    const words = (node: QueryNode) => node.type === 'term' && node.field === 'any';
    const wordList =
      words(parsed.root) ||
      ((parsed.root.type === 'and' || parsed.root.type === 'or') && parsed.root.children.every(words));
    if (clauses > MAX_QUERY_WORDS || (clauses > MAX_QUERY_CLAUSES && !wordList)) problems.push('too many clauses');
    const filtered = parsed.sites.length + parsed.filetypes.length > 0;
    if (!hasPositiveClause(parsed.root) && !filtered) problems.push('exclusions only');
    if (!hasPositiveClause(parsed.root) && parsed.root.type !== 'and') problems.push('lone exclusion not under an and');
  }
  if (new Set(parsed.sites).size !== parsed.sites.length) problems.push('duplicate sites');
  if (new Set(parsed.filetypes).size !== parsed.filetypes.length) problems.push('duplicate filetypes');
  if (parsed.filetypes.some((f) => !FILETYPE_OPERATOR_VALUES.includes(f))) problems.push('unknown filetype');
  if (JSON.stringify(parseQuery(formatQuery(parsed))) !== JSON.stringify(parsed)) problems.push('round trip differs');
  return problems;
}

describe('parseQuery fuzz', () => {
  it(`either parses to a well-formed, round-trippable tree or throws ValidationError (${CASES} seeded cases)`, () => {
    const random = prng(SEED);
    let parsedCount = 0;
    let rejectedCount = 0;
    const failures: string[] = [];
    for (let i = 0; i < CASES; i++) {
      const q = randomQuery(random);
      let parsed: ParsedQuery | undefined;
      try {
        parsed = parseQuery(q);
      } catch (error) {
        if (!(error instanceof ValidationError) || error.param !== 'q' || error.message === '') {
          failures.push(`${JSON.stringify(q)}: threw ${String(error)}`);
        }
        rejectedCount++;
        continue;
      }
      const problems = invariantProblems(parsed);
      if (problems.length > 0) failures.push(`${JSON.stringify(q)}: ${problems.join(', ')}`);
      parsedCount++;
    }
    expect(failures).toEqual([]);
    // Both outcomes must be common, or the alphabet no longer exercises the parser.
    expect(parsedCount).toBeGreaterThan(CASES / 5);
    expect(rejectedCount).toBeGreaterThan(CASES / 20);
  });
});
