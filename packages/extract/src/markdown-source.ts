import { parseTimestamp, UNKNOWN_LANG } from '@quarry/core';
import { parseHTML } from 'linkedom';
import { Marked, type Token } from 'marked';
import { parse as parseYaml } from 'yaml';
import { detectTextLanguage } from './lang.js';
import { extractLinks } from './links.js';
import { resolveLinkTargets } from './markdown-link-targets.js';
import { blockText } from './text.js';
import { EXTRACT_DEFAULTS } from './types.js';
import { countWords } from './word-count.js';

/** What {@link extractMarkdown} reads from a markdown file. */
export interface MarkdownDocument {
  /** The front matter's `title`, else the first level-1 heading, else the first heading; null when none. */
  title: string | null;
  /** Plain text, paragraphs separated by a blank line (code blocks keep their lines). */
  body_text: string;
  /**
   * The markdown itself, front matter removed, its line breaks `\n`, and the targets of its links
   * and images resolved against the file's URL, as a page's are.
   */
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

/** Markdown rendered and read at a time, so that a long file never becomes one huge DOM. */
const CHUNK_CHARS = 64 * 1024;

/** What the rendered chunks of a file give together. */
interface Rendered {
  readonly text: string;
  readonly title: string | null;
  readonly links: string[];
}

/**
 * Renders the markdown block by block (a run of top-level blocks of about {@link CHUNK_CHARS} at a
 * time; the lexer has resolved link references over the whole file) and reads each run's text,
 * headings and links: a 4 MB llms-full.txt as one DOM needed more than the extraction thread's heap.
 */
function render(tokens: readonly Token[], url: string): Rendered {
  const texts: string[] = [];
  const links = new Set<string>();
  let firstH1: string | null = null;
  let firstHeading: string | null = null;
  for (let at = 0; at < tokens.length; ) {
    const chunk: Token[] = [];
    for (let chars = 0; at < tokens.length && (chunk.length === 0 || chars < CHUNK_CHARS); at += 1) {
      const token = tokens[at] as Token;
      chunk.push(token);
      chars += token.raw.length;
    }
    const html = marked.parser(chunk);
    const { document } = parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`);
    const text = blockText(document.body);
    if (text !== '') texts.push(text);
    firstH1 ??= headingText(document.querySelector('h1'));
    firstHeading ??= headingText(document.querySelector('h1, h2, h3, h4, h5, h6'));
    const room = EXTRACT_DEFAULTS.maxLinks - links.size;
    if (room > 0)
      for (const link of extractLinks([...document.querySelectorAll('a[href]')], url, room)) links.add(link);
  }
  return { text: texts.join('\n\n'), title: firstH1 ?? firstHeading, links: [...links] };
}

/**
 * Reads a markdown file (`text/markdown`, a `.md` URL, the pages an llms.txt links): its text as
 * the CommonMark/GFM rendering shows it (emphasis marks, link targets and HTML tags gone, code
 * kept), its title, the author, date and language its YAML front matter gives, and its links
 * resolved against `url`. The markdown is kept as written but for its links' and images' relative
 * targets, resolved against `url` too (`[the API](api.md)` leads nowhere read out of its file).
 * Files longer than a page's HTML may be (`EXTRACT_DEFAULTS.maxHtmlChars`) are read that far.
 */
export function extractMarkdown(source: string, url: string): MarkdownDocument {
  // As much of a file as of a page's HTML is read, cut at a line's end.
  const max = EXTRACT_DEFAULTS.maxHtmlChars;
  const bounded = source.length > max ? source.slice(0, Math.max(source.lastIndexOf('\n', max), 0) || max) : source;
  const unmarked = bounded.replace(/^\uFEFF/, '');
  const front = FRONT_MATTER.exec(unmarked);
  const meta = front ? frontMatter(front[1] ?? '') : {};
  // As marked reads it, so that its tokens' raws are the body's text.
  const body = (front ? unmarked.slice(front[0].length) : unmarked).replace(/\r\n?/g, '\n');
  const tokens = marked.lexer(body);
  const { text, title, links } = render(tokens, url);
  const declared = typeof meta.lang === 'string' ? /^([a-z]{2,3})(?:[-_]|$)/i.exec(meta.lang)?.[1] : undefined;
  return {
    title: stringField(meta.title) ?? title,
    body_text: text,
    body_markdown: resolveLinkTargets(body, tokens, url).trim(),
    author: authorField(meta.author ?? meta.authors),
    published_at: dateField(meta.date ?? meta.published ?? meta.pubDate ?? meta.created),
    lang: declared?.toLowerCase() ?? detectTextLanguage(text).lang ?? UNKNOWN_LANG,
    word_count: countWords(text),
    links,
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

function headingText(heading: Element | null): string | null {
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
