// Real pages from ../shared/testdata used as templates by the crawl benchmarks: the Readability
// test pages (UTF-8) and the Chinese news pages (mostly GBK bytes). Returns Buffers, untouched.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function testdataDir(root) {
  return join(root, '..', 'shared', 'testdata');
}

/** [{ name, bytes, kind }] or null when the test data is absent. */
export function loadTemplatePages(root) {
  const base = testdataDir(root);
  const readability = join(base, 'readability-pages');
  const chinese = join(base, 'chinese-pages', 'original');
  if (!existsSync(readability)) return null;
  const pages = [];
  for (const name of readdirSync(readability).sort()) {
    const file = join(readability, name, 'source.html');
    if (existsSync(file)) pages.push({ name, bytes: readFileSync(file), kind: 'readability' });
  }
  if (existsSync(chinese)) {
    for (const name of readdirSync(chinese).sort()) {
      pages.push({ name, bytes: readFileSync(join(chinese, name)), kind: 'chinese' });
    }
  }
  return pages;
}

/**
 * Neutralizes a template's own links, anchors and `<link>` elements alike (they point at paths of
 * the original site, which would all be 404s here, or at its other languages and feeds), so the
 * crawl follows only the benchmark's link graph.
 */
export function withoutOwnLinks(bytes) {
  return Buffer.from(bytes.toString('latin1').replace(/(<(?:a|link)\b[^>]*?\s)href=/gi, '$1data-href='), 'latin1');
}

/** Paragraphs of a template that get a page's marker at most. */
const MAX_MARKED_PARAGRAPHS = 400;

/**
 * Splits a template after each opening tag of a paragraph, line break, list item, table cell or
 * heading, once, so that every page served from it can carry its own marker there (`q17h2`): the templates repeat, and the crawler
 * stores a main text once (an exact-duplicate fingerprint), so pages without a marker of their own
 * would be skipped as duplicates of each other instead of crawled and indexed as real pages are.
 */
export function splitForMarkers(bytes) {
  const text = bytes.toString('latin1');
  const parts = [];
  let from = 0;
  for (const m of text.matchAll(/<(?:p|br|li|td|h[1-6])(?:\s[^>]*)?\/?>/gi)) {
    if (parts.length >= MAX_MARKED_PARAGRAPHS) break;
    const end = m.index + m[0].length;
    parts.push(bytes.subarray(from, end));
    from = end;
  }
  parts.push(bytes.subarray(from));
  return parts;
}

/** The block of links the benchmark appends to a page; ASCII, so it is valid in GBK pages too. */
export function linkBlock(hrefs) {
  return Buffer.from(
    `\n<ul class="bench-links">${hrefs.map((h) => `<li><a href="${h}">${h}</a></li>`).join('')}</ul>\n`,
  );
}

/**
 * Splits a page where a link block goes (before `</body>`, else at the end), once per template, so
 * that serving a page costs a small block instead of re-scanning the whole page per request.
 */
export function splitForLinks(bytes) {
  const at = bytes.toString('latin1').toLowerCase().lastIndexOf('</body>');
  return at < 0 ? { head: bytes, tail: Buffer.alloc(0) } : { head: bytes.subarray(0, at), tail: bytes.subarray(at) };
}

/** Appends a block of links before </body> (or at the end). */
export function withLinks(bytes, hrefs) {
  const { head, tail } = splitForLinks(bytes);
  return Buffer.concat([head, linkBlock(hrefs), tail]);
}
