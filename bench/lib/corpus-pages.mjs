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

/** Appends a block of links before </body> (or at the end); ASCII, so it is valid in GBK pages too. */
export function withLinks(bytes, hrefs) {
  const block = Buffer.from(
    `\n<ul class="bench-links">${hrefs.map((h) => `<li><a href="${h}">${h}</a></li>`).join('')}</ul>\n`,
  );
  const text = bytes.toString('latin1');
  const at = text.toLowerCase().lastIndexOf('</body>');
  if (at < 0) return Buffer.concat([bytes, block]);
  return Buffer.concat([bytes.subarray(0, at), block, bytes.subarray(at)]);
}
