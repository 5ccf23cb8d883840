import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { extractHtml } from '@quarry/extract';
import { tokenize } from '@quarry/text';
import { selectPassages } from './passages.js';
import { countTokens } from './tokens.js';

const PAGES_DIR = join(new URL('.', import.meta.url).pathname, '../../../../shared/testdata/readability-pages');
const BASE_URL = 'http://fakehost/test/page.html';
/** Sentences of at least this many words make a query (shorter ones are headings or captions). */
const MIN_SENTENCE_WORDS = 8;
const BUDGET_TOKENS = 400;
const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

interface Case {
  readonly page: string;
  readonly bodyText: string;
  readonly lang: string;
  /** The extractor's markdown, when it gives one (heading paths). */
  readonly bodyMarkdown: string | undefined;
  readonly sentence: { start: number; end: number };
}

/** The sentences of each line (segmenting line by line: the segmenter is slow on whole pages). */
function sentencesOf(text: string): { start: number; end: number; text: string }[] {
  const sentences: { start: number; end: number; text: string }[] = [];
  for (const line of text.matchAll(/[^\n]+/g)) {
    for (const s of sentenceSegmenter.segment(line[0])) {
      const start = line.index + s.index;
      sentences.push({ start, end: start + s.segment.trimEnd().length, text: s.segment.trim() });
    }
  }
  return sentences;
}

/** Sentences a quarter, half and three quarters into each page's text (deterministic). */
function pickCases(): Case[] {
  const cases: Case[] = [];
  for (const page of readdirSync(PAGES_DIR).sort()) {
    const html = readFileSync(join(PAGES_DIR, page, 'source.html'), 'utf8');
    const extracted: { body_text: string; lang: string; body_markdown?: string } = extractHtml(html, { url: BASE_URL });
    const { body_text: bodyText, lang, body_markdown: bodyMarkdown } = extracted;
    const candidates = sentencesOf(bodyText).filter((s) => tokenize(s.text).length >= MIN_SENTENCE_WORDS);
    const picks = new Set([1, 2, 3].map((q) => Math.floor((candidates.length * q) / 4)));
    for (const pick of picks) {
      const sentence = candidates[pick];
      if (sentence) cases.push({ page, bodyText, lang, bodyMarkdown, sentence });
    }
  }
  return cases;
}

const describeIfData = existsSync(PAGES_DIR) ? describe : describe.skip;
if (!existsSync(PAGES_DIR)) console.warn(`skipping passage acceptance: ${PAGES_DIR} is absent`);

describeIfData('passages on the Readability test pages', () => {
  const cases = existsSync(PAGES_DIR) ? pickCases() : [];

  it('ranks the passage holding a sentence first for a query of its words in at least 90% of pages', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    const misses: string[] = [];
    for (const { page, bodyText, lang, bodyMarkdown, sentence } of cases) {
      const query = tokenize(bodyText.slice(sentence.start, sentence.end)).join(' ');
      const passages = selectPassages({ bodyText, bodyMarkdown, query, lang, maxTokens: BUDGET_TOKENS });
      const best = [...passages].sort((a, b) => b.score - a.score)[0];
      // Boilerplate pages repeat sentences: any passage holding the sentence's text is the right one.
      if (!best?.text.includes(bodyText.slice(sentence.start, sentence.end))) misses.push(`${page}@${sentence.start}`);
    }
    const hitRate = 1 - misses.length / cases.length;
    console.info(`passage hits: ${cases.length - misses.length} of ${cases.length}`);
    if (hitRate < 1) console.info(`passage misses (${misses.length}/${cases.length}): ${misses.join(', ')}`);
    expect(hitRate).toBeGreaterThanOrEqual(0.9);
  });

  it('keeps every answer within its budget with offsets that slice the text exactly', () => {
    // One query per page: the budgets, not the queries, change the chunking.
    const onePerPage = cases.filter((c, i) => i === 0 || cases[i - 1]!.page !== c.page);
    for (const { bodyText, bodyMarkdown, sentence } of onePerPage) {
      const query = bodyText.slice(sentence.start, sentence.end);
      for (const maxTokens of [16, 100, BUDGET_TOKENS]) {
        const passages = selectPassages({ bodyText, bodyMarkdown, query, maxTokens });
        const total = passages.reduce((sum, p) => sum + countTokens(p.text), 0);
        expect(total).toBeLessThanOrEqual(maxTokens);
        for (const p of passages) expect(bodyText.slice(p.start, p.end)).toBe(p.text);
        const starts = passages.map((p) => p.start);
        expect(starts).toEqual([...starts].sort((a, b) => a - b));
      }
    }
  });
});
