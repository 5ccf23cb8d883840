import {
  FILETYPES,
  type Filetype,
  hostOf,
  normalizeLang,
  normalizeUrl,
  type PageDocument,
  pageIdForUrl,
  parseDate,
  toIsoUtc,
  UNKNOWN_LANG,
} from '@quarry/core';
import { withoutControls } from '@quarry/extract';
import { simhash } from '@quarry/text';
import { z } from 'zod';

/** Longest body_text accepted from an import line, in characters. */
export const MAX_IMPORT_BODY_CHARS = 5_000_000;
/** Longest url accepted, in characters (as the crawler's frontier). */
export const MAX_IMPORT_URL_CHARS = 2048;
/** Longest title accepted, in characters. */
export const MAX_IMPORT_TITLE_CHARS = 2000;
/** Longest author or site_name accepted, in characters. */
export const MAX_IMPORT_NAME_CHARS = 500;
/** How far ahead of now a crawled_at may be (clocks and zones differ), in milliseconds. */
const DAY_MS = 86_400_000;

const count = new Intl.NumberFormat('en-US');

/**
 * The reason for a wrong type: "is required" when the field is missing, else what it must be. Only
 * type errors: a field-wide message would also replace the length checks' own (a 5.2-million-
 * character body_text was once reported as "must be a string").
 */
const mustBe = (what: string) => ({
  error: (issue: { code: string; input?: unknown }) =>
    issue.code === 'invalid_type' || issue.code === 'invalid_union'
      ? issue.input === undefined
        ? 'is required'
        : `must be ${what}`
      : undefined,
});

/** A string of at most `max` characters; a longer one is reported with the limit and its length. */
const text = (max: number) =>
  z.string(mustBe('a string')).max(max, {
    error: (issue) => `longer than ${count.format(max)} characters (${count.format(String(issue.input).length)})`,
  });

const date = () => z.union([z.string(), z.number()], mustBe('a date (a string or a number)')).nullish();

const lineSchema = z.object({
  url: text(MAX_IMPORT_URL_CHARS).min(1, 'must not be empty'),
  title: text(MAX_IMPORT_TITLE_CHARS),
  body_text: text(MAX_IMPORT_BODY_CHARS).min(1, 'must not be empty'),
  lang: z.string(mustBe('a string')).nullish(),
  published_at: date(),
  author: text(MAX_IMPORT_NAME_CHARS).nullish(),
  site_name: text(MAX_IMPORT_NAME_CHARS).nullish(),
  crawled_at: date(),
  has_llms_txt: z.boolean(mustBe('true or false')).nullish(),
  filetype: z.string(mustBe('a string')).nullish(),
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
  // Control characters dropped as the extractor drops them from a crawled page.
  const bodyText = withoutControls(input.body_text);
  if (bodyText.trim() === '')
    return { ok: false, reason: 'body_text: holds no text, only blanks or control characters' };
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
    lang = helpers.detectLang(bodyText) || UNKNOWN_LANG;
  }
  // Any real date: an archive's paper of 1969, an event's page dated ahead.
  const publishedAt = input.published_at == null ? null : parseDate(input.published_at);
  if (input.published_at != null && publishedAt === null) {
    return { ok: false, reason: `published_at: not a valid date: ${String(input.published_at)}` };
  }
  let crawledAt = toIsoUtc(now);
  if (input.crawled_at != null) {
    const value = parseDate(input.crawled_at);
    if (value === null) return { ok: false, reason: `crawled_at: not a valid date: ${String(input.crawled_at)}` };
    // A page cannot have been fetched later than now (a day's grace for clocks and zones). The
    // reason shows the time as read (an epoch number means nothing to a reader) and the limit.
    const latest = new Date(now.getTime() + DAY_MS);
    if (Date.parse(value) > latest.getTime()) {
      const given = String(input.crawled_at);
      const read = given === value ? given : `${given} (${value})`;
      return { ok: false, reason: `crawled_at: ${read} is later than a day from now (${toIsoUtc(latest)})` };
    }
    crawledAt = value;
  }
  const filetype = resolveFiletype(input.filetype, url);
  if (filetype === null) {
    return { ok: false, reason: `filetype: must be one of ${FILETYPES.join(', ')}` };
  }
  // Names are shown on one line: a title, author or site name pasted with its line breaks and tabs
  // has them as single spaces, and no control characters.
  const oneLine = (text: string): string => withoutControls(text).replace(/\s+/g, ' ').trim();
  const title = oneLine(input.title);
  const fingerprint = simhash(bodyText);
  const siteName = input.site_name == null ? undefined : oneLine(input.site_name);
  const author = input.author == null ? undefined : oneLine(input.author);
  return {
    ok: true,
    doc: {
      id: pageIdForUrl(url),
      url,
      title,
      body_text: bodyText,
      lang,
      author: author ? author : null,
      published_at: publishedAt,
      crawled_at: crawledAt,
      site_name: siteName ? siteName : null,
      has_llms_txt: input.has_llms_txt ?? false,
      filetype,
      domain: hostOf(url),
      word_count: helpers.countWords(bodyText),
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
