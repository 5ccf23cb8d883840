// What a page declares about its author and publication date in structured data alone: JSON-LD,
// meta tags and schema.org microdata. The extraction benchmark splits its author and date accuracy
// by it: a page that declares the reference's answer tests that Quarry reads what is declared; a
// page that does not tests the visible-byline and dateline rules, the part that can be overfitted.
// Read here on its own, not through Quarry's meta.ts: the split must not depend on the reader it
// grades.
import { parseHTML } from 'linkedom';

const AUTHOR_METAS = [
  'meta[name="author" i]',
  'meta[property="article:author"]',
  'meta[name="parsely-author"]',
  'meta[name="sailthru.author"]',
  'meta[name="dc.creator" i]',
].join(', ');
const DATE_METAS = [
  'meta[property="article:published_time"]',
  'meta[name="pubdate" i]',
  'meta[name="publishdate" i]',
  'meta[name="date" i]',
  'meta[name="dc.date" i]',
  'meta[name="parsely-pub-date"]',
  'meta[name="sailthru.date"]',
  'meta[itemprop="datePublished"]',
].join(', ');

/** Every `author` (names, joined by ", " when several) and `datePublished` in the page's JSON-LD. */
function fromJsonLd(doc) {
  const authors = [];
  const dates = [];
  const visit = (value) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    if (value.author !== undefined) {
      const names = (Array.isArray(value.author) ? value.author : [value.author])
        .map((a) => (typeof a === 'string' ? a : a?.name))
        .filter((name) => typeof name === 'string' && name.trim() !== '');
      if (names.length > 0) authors.push(names.join(', '));
    }
    if (typeof value.datePublished === 'string') dates.push(value.datePublished);
    for (const [key, child] of Object.entries(value)) if (key !== 'author' && typeof child === 'object') visit(child);
  };
  for (const script of doc.querySelectorAll('script[type="application/ld+json" i]')) {
    try {
      visit(JSON.parse(script.textContent ?? ''));
    } catch {
      // A script that is not JSON declares nothing.
    }
  }
  return { authors, dates };
}

/**
 * The authors and publication dates `html` declares in structured data (JSON-LD `author` and
 * `datePublished`, author and date meta tags, microdata `itemprop="author"` and `datePublished`),
 * as written; a meta author that is a URL (a profile page) is left out.
 * @example declaredMetadata('<meta name="author" content="Ann Lee">') // { authors: ['Ann Lee'], dates: [] }
 */
export function declaredMetadata(html) {
  const { document } = parseHTML(html);
  const { authors, dates } = fromJsonLd(document);
  for (const meta of document.querySelectorAll(AUTHOR_METAS)) {
    const content = meta.getAttribute('content')?.trim();
    if (content && !/^https?:/i.test(content)) authors.push(content);
  }
  for (const el of document.querySelectorAll('[itemprop="author"]')) {
    const name = (el.querySelector('[itemprop="name"]') ?? el).textContent?.replace(/\s+/g, ' ').trim();
    if (name) authors.push(name);
  }
  for (const meta of document.querySelectorAll(DATE_METAS)) {
    const content = meta.getAttribute('content')?.trim();
    if (content) dates.push(content);
  }
  for (const el of document.querySelectorAll('[itemprop="datePublished"]:not(meta)')) {
    const value = (el.getAttribute('datetime') ?? el.getAttribute('content') ?? el.textContent ?? '').trim();
    if (value) dates.push(value);
  }
  return { authors, dates };
}
