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
 * Neutralizes a template's own links (they point at paths of the original site, which would all be
 * 404s here), so the crawl follows only the benchmark's link graph.
 */
export function withoutOwnLinks(bytes) {
  return Buffer.from(bytes.toString('latin1').replace(/(<a\b[^>]*?\s)href=/gi, '$1data-href='), 'latin1');
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
