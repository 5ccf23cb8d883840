/**
 * The quality prior: its rule on small pages, and its figures on the shared pages: articles
 * (../shared/testdata/readability-pages) keep 1; home and tag pages built from those pages' own
 * link lists get less; WCXB listing and collection pages (which have main content) are mostly left
 * alone. Prints the figures docs/crawler.md quotes; the testdata parts skip when it is absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { extractHtml } from './extract-html.js';
import { LINK_LIST_QUALITY, LINKY_QUALITY, linkFacts, qualityPrior, RUNNING_TEXT_CHARS } from './quality-prior.js';

const TESTDATA = join(import.meta.dirname, '../../../../shared/testdata');
const READABILITY = join(TESTDATA, 'readability-pages');
const WCXB = join(TESTDATA, 'wcxb-dev/dev');
const URL = 'http://fakehost/test/page.html';

const quality = (html: string) => extractHtml(html, { url: URL, markdown: false }).quality;
const facts = (html: string) => linkFacts(parseHTML(html).document as unknown as Document);

/** A site's home page or tag page: chrome, a heading, and the given headlines as a list of links. */
function linkListPage(kind: 'home' | 'tag', headlines: readonly { href: string; text: string }[]): string {
  const items = headlines.map((h, i) =>
    kind === 'home'
      ? `<li><a href="${h.href}">${h.text}</a> <span class="date">${(i % 28) + 1} March 2024</span></li>`
      : `<div class="post"><h2><a href="${h.href}">${h.text}</a></h2><p class="meta">Posted by <a href="/author/sam/">Sam</a></p></div>`,
  );
  const list = kind === 'home' ? `<ul class="latest">${items.join('')}</ul>` : items.join('');
  return `<!doctype html><html lang="en"><head><title>${kind === 'home' ? 'The Example Gazette' : 'Tag: science'}</title></head>
<body><header><a href="/">The Example Gazette</a><nav><a href="/news/">News</a> <a href="/sport/">Sport</a> <a href="/about/">About</a></nav></header>
<main><h1>${kind === 'home' ? 'Latest stories' : 'Posts tagged “science”'}</h1>${list}<p><a href="?page=2">Older posts</a></p></main>
<footer>© 2026 The Example Gazette · <a href="/privacy/">Privacy</a></footer></body></html>`;
}

describe('qualityPrior', () => {
  it('keeps 1 for running text and lowers pages made of links', () => {
    expect(qualityPrior({ chars: 0, linkChars: 0 })).toBe(1);
    expect(qualityPrior({ chars: 5_000, linkChars: 3_900 })).toBe(1);
    expect(qualityPrior({ chars: 800, linkChars: 100 })).toBe(1);
    expect(qualityPrior({ chars: 800, linkChars: 600 })).toBe(LINK_LIST_QUALITY);
    expect(qualityPrior({ chars: 800, linkChars: 320 })).toBe(LINKY_QUALITY);
    expect(LINK_LIST_QUALITY).toBeLessThan(LINKY_QUALITY);
    expect(RUNNING_TEXT_CHARS).toBeGreaterThan(0);
  });

  it('leaves navigation, header and footer links out of the count', () => {
    const html = `<html><body><nav><a href="/a">A very long menu entry</a></nav><header><a href="/">Home</a></header>
      <main><p>Plain words here, <a href="/x">one link</a>.</p></main><footer><a href="/p">Privacy</a></footer></body></html>`;
    expect(facts(html)).toEqual({ chars: 'Plainwordshere,onelink.'.length, linkChars: 'onelink'.length });
  });

  it('is set by extraction: a home page below 1, an article 1', () => {
    const headlines = Array.from({ length: 20 }, (_, i) => ({
      href: `/story-${i}`,
      text: `Story number ${i} of the day`,
    }));
    expect(quality(linkListPage('home', headlines))).toBeLessThan(1);
    const article = `<html><body><article><h1>Airships</h1>${'<p>Airship hangars need careful humidity control, and the envelope is inspected weekly by the crew.</p>'.repeat(12)}</article></body></html>`;
    expect(quality(article)).toBe(1);
  });

  it('keeps 1 for running text its chrome holds (an article in a <header>, posts in a <form>), not for links', () => {
    const cards = Array.from(
      { length: 12 },
      (_, i) => `<a href="/related-${i}">Related story number ${i} of the day</a>`,
    );
    const paragraphs =
      '<p>Airship hangars need careful humidity control, and the envelope is inspected weekly by the crew.</p>'.repeat(
        14,
      );
    for (const wrapper of ['header', 'form']) {
      const running = `<html><body><${wrapper}><h1>Airships</h1>${paragraphs}</${wrapper}><div>${cards.join(' ')}</div></body></html>`;
      expect(quality(running)).toBe(1);
      // The same wrapper around a list of links (an ASP.NET page's form) leaves the page a link list.
      const links = `<html><body><${wrapper}><h1>Latest</h1><ul>${cards.map((c) => `<li>${c}</li>`).join('')}</ul></${wrapper}><div>${cards.join(' ')}</div></body></html>`;
      expect(quality(links)).toBeLessThan(1);
    }
  });
});

const readabilityPresent = existsSync(READABILITY);
if (!readabilityPresent) console.warn(`quality prior figures skipped: ${READABILITY} is absent`);

(readabilityPresent ? describe : describe.skip)('quality prior on the shared Readability pages', () => {
  const sources = readabilityPresent
    ? readdirSync(READABILITY).map((name) => ({
        name,
        html: readFileSync(join(READABILITY, name, 'source.html'), 'utf8'),
      }))
    : [];

  it('keeps articles at 1', () => {
    const lowered = sources.filter((s) => quality(s.html) < 1).map((s) => s.name);
    console.log(`Readability articles below 1: ${lowered.length} of ${sources.length} (${lowered.join(', ')})`);
    expect(sources.length).toBeGreaterThanOrEqual(60);
    expect(lowered.length).toBeLessThanOrEqual(2);
  });

  it('lowers home and tag pages built from their own link lists', () => {
    const pages = sources.flatMap((s) => {
      const anchors = Array.from(parseHTML(s.html).document.querySelectorAll('a[href]'));
      const headlines = anchors
        .map((a) => ({ href: a.getAttribute('href') ?? '', text: (a.textContent ?? '').replace(/\s+/g, ' ').trim() }))
        .filter((h) => h.text.length >= 15 && h.text.length <= 160)
        .slice(0, 40);
      if (headlines.length < 8) return [];
      return [linkListPage('home', headlines), linkListPage('tag', headlines)];
    });
    const lowered = pages.filter((html) => quality(html) < 1).length;
    console.log(`link-list pages built from the Readability pages' links below 1: ${lowered} of ${pages.length}`);
    expect(pages.length).toBeGreaterThanOrEqual(40);
    expect(lowered / pages.length).toBeGreaterThanOrEqual(0.9);
  });
});

const wcxbPresent = existsSync(WCXB);
if (!wcxbPresent) console.warn(`quality prior WCXB figures skipped: ${WCXB} is absent`);

(wcxbPresent ? describe : describe.skip)('quality prior on WCXB listing and collection pages', () => {
  it('leaves most of them at 1 (they have main content)', () => {
    const counts: Record<string, { pages: number; lowered: number }> = {};
    for (const file of readdirSync(join(WCXB, 'ground-truth'))) {
      const truth = JSON.parse(readFileSync(join(WCXB, 'ground-truth', file), 'utf8'));
      const type: string = truth._internal.page_type.primary;
      if (type !== 'listing' && type !== 'collection') continue;
      const html = gunzipSync(readFileSync(join(WCXB, 'html', file.replace('.json', '.html.gz')))).toString('utf8');
      const c = counts[type] ?? { pages: 0, lowered: 0 };
      counts[type] = c;
      c.pages += 1;
      if (quality(html) < 1) c.lowered += 1;
    }
    console.log(`WCXB below 1: ${JSON.stringify(counts)}`);
    for (const c of Object.values(counts)) {
      expect(c.pages).toBeGreaterThan(80);
      expect(c.lowered / c.pages).toBeLessThanOrEqual(0.35);
    }
  }, 300_000);
});
