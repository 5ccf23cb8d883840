import { parseTimestamp, UNKNOWN_LANG } from '@quarry/core';
import { parseHTML } from 'linkedom';
import { Marked } from 'marked';
import { parse as parseYaml } from 'yaml';
import { detectTextLanguage } from './lang.js';
import { extractLinks } from './links.js';
import { blockText } from './text.js';
import { EXTRACT_DEFAULTS } from './types.js';
import { countWords } from './word-count.js';

/** What {@link extractMarkdown} reads from a markdown file. */
export interface MarkdownDocument {
  /** The front matter's `title`, else the first level-1 heading, else the first heading; null when none. */
  title: string | null;
  /** Plain text, paragraphs separated by a blank line (code blocks keep their lines). */
  body_text: string;
  /** The markdown itself, front matter removed. */
  body_markdown: string;
  author: string | null;
  /** ISO 8601 UTC from the front matter's `date` (or `published`, `pubDate`, `created`); null when none. */
  published_at: string | null;
  /** The front matter's `lang`, else detected from the text; `und` when unknown. */
  lang: string;
  word_count: number;
  /** Absolute http(s) URLs of its links (resolved against the file's URL), to crawl on. */
  links: string[];
}

/** A front matter block: `---` on the first line, YAML, then `---` or `...`, bounded in size. */
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]{0,65536}?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

const marked = new Marked({ gfm: true, async: false });

/**
 * Reads a markdown file (`text/markdown`, a `.md` URL, the pages an llms.txt links): its text as
 * the CommonMark/GFM rendering shows it (emphasis marks, link targets and HTML tags gone, code
 * kept), its title, the author, date and language its YAML front matter gives, and its links
 * resolved against `url`. The markdown is kept as written, so its relative links stay relative.
 */
export function extractMarkdown(source: string, url: string): MarkdownDocument {
  const unmarked = source.replace(/^\uFEFF/, '');
  const front = FRONT_MATTER.exec(unmarked);
  const meta = front ? frontMatter(front[1] ?? '') : {};
  const body = front ? unmarked.slice(front[0].length) : unmarked;
  const html = marked.parse(body) as string;
  const { document } = parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`);
  const text = blockText(document.body);
  const declared = typeof meta.lang === 'string' ? /^([a-z]{2,3})(?:[-_]|$)/i.exec(meta.lang)?.[1] : undefined;
  return {
    title: stringField(meta.title) ?? headingTitle(document),
    body_text: text,
    body_markdown: body.trim(),
    author: authorField(meta.author ?? meta.authors),
    published_at: dateField(meta.date ?? meta.published ?? meta.pubDate ?? meta.created),
    lang: declared?.toLowerCase() ?? detectTextLanguage(text).lang ?? UNKNOWN_LANG,
    word_count: countWords(text),
    links: extractLinks([...document.querySelectorAll('a[href]')], url, EXTRACT_DEFAULTS.maxLinks),
  };
}

function frontMatter(yaml: string): Record<string, unknown> {
  try {
    const value = parseYaml(yaml, { maxAliasCount: 16, prettyErrors: false }) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function headingTitle(document: Document): string | null {
  const heading = document.querySelector('h1') ?? document.querySelector('h2, h3, h4, h5, h6');
  const text = heading?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
  return text === '' ? null : text.slice(0, 500);
}

function stringField(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value).replace(/\s+/g, ' ').trim();
  return text === '' ? null : text.slice(0, 500);
}

/** `author: Ada`, `author: {name: Ada}`, `authors: [Ada, {name: Grace}]`: names joined by commas. */
function authorField(value: unknown): string | null {
  const names = (Array.isArray(value) ? value : [value])
    .map((entry) =>
      stringField(typeof entry === 'object' && entry !== null ? (entry as { name?: unknown }).name : entry),
    )
    .filter((name): name is string => name !== null);
  return names.length === 0 ? null : names.join(', ').slice(0, 500);
}

function dateField(value: unknown): string | null {
  return value instanceof Date || typeof value === 'string' ? parseTimestamp(value) : null;
}
