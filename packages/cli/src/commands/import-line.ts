import {
  FILETYPES,
  type Filetype,
  hostOf,
  normalizeLang,
  normalizeUrl,
  type PageDocument,
  pageIdForUrl,
  parseTimestamp,
  toIsoUtc,
  UNKNOWN_LANG,
} from '@quarry/core';
import { simhash } from '@quarry/text';
import { z } from 'zod';

/** Longest body_text accepted from an import line, in characters. */
export const MAX_IMPORT_BODY_CHARS = 5_000_000;

/** "is required" for a missing field, "must be a string" for a wrong type. */
const text = () => z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') });

const lineSchema = z.object({
  url: text().min(1, 'url must not be empty').max(2048, 'url is longer than 2048 characters'),
  title: text().max(2000, 'title is longer than 2000 characters'),
  body_text: text().min(1, 'body_text must not be empty').max(MAX_IMPORT_BODY_CHARS),
  lang: z.string().nullish(),
  published_at: z.union([z.string(), z.number()]).nullish(),
  author: z.string().max(500).nullish(),
  site_name: z.string().max(500).nullish(),
  crawled_at: z.union([z.string(), z.number()]).nullish(),
  has_llms_txt: z.boolean().nullish(),
  filetype: z.string().nullish(),
});

/** The outcome of one JSONL line: a document, or the reason it was rejected. */
export type ImportLineResult = { ok: true; doc: PageDocument } | { ok: false; reason: string };

/** Counts words; injected so the importer and the crawler count the same way. */
export type WordCounter = (text: string) => number;
/** Detects the language of a text when the line does not give one. */
export type LangDetector = (text: string) => string;

/**
 * Validates one JSONL line of `quarry import` and turns it into a PageDocument (DESIGN.md:
 * filetype defaults to the URL's extension, else html; crawled_at to now).
 */
export function parseImportLine(
  line: string,
  helpers: { countWords: WordCounter; detectLang: LangDetector; now?: Date },
): ImportLineResult {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    return { ok: false, reason: `invalid JSON (${(error as Error).message})` };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { ok: false, reason: 'each line must be a JSON object' };
  }
  const parsed = lineSchema.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      reason: parsed.error.issues.map((i) => `${i.path.join('.') || 'line'}: ${i.message}`).join('; '),
    };
  }
  const input = parsed.data;
  let url: string;
  try {
    url = normalizeUrl(input.url);
  } catch {
    return { ok: false, reason: `url: not an absolute http(s) URL: ${input.url.slice(0, 200)}` };
  }
  const now = helpers.now ?? new Date();
  let lang: string;
  if (input.lang != null && input.lang !== '') {
    const normalized = normalizeLang(input.lang);
    if (normalized === null) return { ok: false, reason: `lang: not a language code: ${input.lang}` };
    lang = normalized;
  } else {
    lang = helpers.detectLang(input.body_text) || UNKNOWN_LANG;
  }
  const publishedAt = input.published_at == null ? null : parseTimestamp(input.published_at, now);
  if (input.published_at != null && publishedAt === null) {
    return { ok: false, reason: `published_at: not a valid date: ${String(input.published_at)}` };
  }
  let crawledAt = toIsoUtc(now);
  if (input.crawled_at != null) {
    const value = parseTimestamp(input.crawled_at, now);
    if (value === null) return { ok: false, reason: `crawled_at: not a valid date: ${String(input.crawled_at)}` };
    crawledAt = value;
  }
  const filetype = resolveFiletype(input.filetype, url);
  if (filetype === null) {
    return { ok: false, reason: `filetype: must be one of ${FILETYPES.join(', ')}` };
  }
  const title = input.title.trim();
  const fingerprint = simhash(input.body_text);
  const siteName = input.site_name?.trim();
  const author = input.author?.trim();
  return {
    ok: true,
    doc: {
      id: pageIdForUrl(url),
      url,
      title,
      body_text: input.body_text,
      lang,
      author: author ? author : null,
      published_at: publishedAt,
      crawled_at: crawledAt,
      site_name: siteName ? siteName : null,
      has_llms_txt: input.has_llms_txt ?? false,
      filetype,
      domain: hostOf(url),
      word_count: helpers.countWords(input.body_text),
      // As the crawler computes it, so that near-copies among imported pages collapse in results.
      ...(fingerprint ? { simhash: fingerprint } : {}),
    },
  };
}

function resolveFiletype(given: string | null | undefined, url: string): Filetype | null {
  if (given != null && given !== '') {
    const value = given.trim().toLowerCase().replace(/^\./, '');
    return (FILETYPES as readonly string[]).includes(value) ? (value as Filetype) : null;
  }
  const ext = /\.([a-z0-9]{2,5})$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase();
  if (ext === 'htm') return 'html';
  return ext && (FILETYPES as readonly string[]).includes(ext) ? (ext as Filetype) : 'html';
}
