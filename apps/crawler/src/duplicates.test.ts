import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { type PageDocument, pageIdForUrl } from '@quarry/core';
import { type FingerprintStore, type IndexItem, isRemoval, openSqliteQueues, type Queues } from '@quarry/queue';
import { canonicalFromLinkHeader, crawlInstead, storeOnce } from './duplicates.js';

const TEXT = 'The ptarmigan turns white in winter.';

const doc = (url: string, body = TEXT): PageDocument => ({
  id: pageIdForUrl(url),
  url,
  title: 't',
  body_text: body,
  lang: 'en',
  author: null,
  published_at: null,
  crawled_at: '2026-11-24T08:00:00Z',
  site_name: null,
  has_llms_txt: false,
  filetype: 'html',
  domain: 'a.test',
  word_count: 6,
});

describe('storeOnce', () => {
  let dir: string;
  let queues: Queues;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-store-once-'));
    queues = openSqliteQueues({ path: join(dir, 'queue.db'), pollIntervalMs: 10 });
  });
  afterEach(async () => {
    await queues.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What the indexer would do with everything queued: ids indexed at the end. */
  async function indexedIds(): Promise<string[]> {
    const items: IndexItem[] = [];
    const worker = queues.index.work(async (batch) => void items.push(...batch), { maxWaitMs: 10 });
    for (let i = 0; i < 100 && (await queues.index.stats()).waiting > 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    await worker.close();
    const indexed = new Set<string>();
    for (const item of items) {
      if (isRemoval(item)) indexed.delete(item.id);
      else indexed.add(item.id);
    }
    return [...indexed];
  }

  it('stores a text once, under the shortest URL, whatever the order', async () => {
    const deps = { fingerprints: queues.fingerprints, index: queues.index };
    expect(await storeOnce(doc('http://a.test/index.html'), false, deps)).toMatchObject({ held: true });
    expect(await storeOnce(doc('http://a.test/?edition=usa'), false, deps)).toEqual({
      held: false,
      holder: 'http://a.test/index.html',
    });
    expect(await storeOnce(doc('http://a.test/'), false, deps)).toMatchObject({ held: true });
    expect(await indexedIds()).toEqual([pageIdForUrl('http://a.test/')]);
  });

  it('takes a text from a holder within a forgotten site, whose page left the index', async () => {
    const deps = { fingerprints: queues.fingerprints, index: queues.index, crawl: queues.crawl };
    expect(await storeOnce(doc('http://m.test/'), true, deps)).toMatchObject({ held: true });
    expect(await storeOnce(doc('http://a.test/original/page'), false, deps)).toEqual({
      held: false,
      holder: 'http://m.test/',
    });
    await queues.crawl.forget(['m.test']);
    const stored = await storeOnce(doc('http://a.test/original/page'), false, deps);
    expect(stored).toMatchObject({ held: true });
    if (!stored.held) throw new Error('not held');
    expect(await queues.fingerprints.holder(stored.fingerprint)).toBe('http://a.test/original/page');
  });

  it('leaves a text with a holder within a site forgotten with --keep-pages, whose page stays indexed', async () => {
    const deps = { fingerprints: queues.fingerprints, index: queues.index, crawl: queues.crawl };
    expect(await storeOnce(doc('http://m.test/'), true, deps)).toMatchObject({ held: true });
    await queues.crawl.forget(['m.test'], { keepPages: true });
    expect(await storeOnce(doc('http://a.test/copy'), false, deps)).toEqual({ held: false, holder: 'http://m.test/' });
    expect(await indexedIds()).toEqual([pageIdForUrl('http://m.test/')]);
  });

  it('keeps pages of one text under different titles apart, and one title in other case and spacing as one', async () => {
    const deps = { fingerprints: queues.fingerprints, index: queues.index };
    const titled = (url: string, title: string) => ({ ...doc(url), title });
    expect(await storeOnce(titled('http://a.test/glossary/ptarmigan', 'Ptarmigan'), false, deps)).toMatchObject({
      held: true,
    });
    expect(await storeOnce(titled('http://a.test/glossary/grouse', 'Grouse'), false, deps)).toMatchObject({
      held: true,
    });
    expect(await storeOnce(titled('http://a.test/glossary/ptarmigan?print=1', ' PTARMIGAN '), false, deps)).toEqual({
      held: false,
      holder: 'http://a.test/glossary/ptarmigan',
    });
  });

  it('keeps a text published in several formats once per format, so filetype: finds each', async () => {
    const deps = { fingerprints: queues.fingerprints, index: queues.index };
    const as = (url: string, filetype: PageDocument['filetype']) => ({ ...doc(url), filetype });
    expect(await storeOnce(as('http://a.test/report.pdf', 'pdf'), false, deps)).toMatchObject({ held: true });
    expect(await storeOnce(as('http://a.test/r.docx', 'docx'), false, deps)).toMatchObject({ held: true });
    expect(await storeOnce(as('http://a.test/report.html', 'html'), false, deps)).toMatchObject({ held: true });
    // One format's copies are still one document: `odt` is of the doc family, as `filetype:doc` says.
    expect(await storeOnce(as('http://a.test/report.odt', 'odt'), false, deps)).toEqual({
      held: false,
      holder: 'http://a.test/r.docx',
    });
    expect((await indexedIds()).sort()).toEqual(
      ['http://a.test/report.pdf', 'http://a.test/r.docx', 'http://a.test/report.html'].map(pageIdForUrl).sort(),
    );
  });

  it('takes the document out again when a better URL claims the text in the meantime', async () => {
    // The other crawler's claim lands between this one's claim and its check.
    const racing: FingerprintStore = {
      claim: async (fp, candidate) => {
        const claim = await queues.fingerprints.claim(fp, candidate);
        const other = await queues.fingerprints.claim(fp, { url: 'http://a.test/', canonical: false });
        if (other.replaced) await queues.index.push([{ id: pageIdForUrl(other.replaced), removed: true }]);
        return claim;
      },
      holder: (fp) => queues.fingerprints.holder(fp),
      release: (fp, url) => queues.fingerprints.release(fp, url),
    };
    await queues.index.push([doc('http://a.test/')]);
    const outcome = await storeOnce(doc('http://a.test/index.html'), false, {
      fingerprints: racing,
      index: queues.index,
    });
    expect(outcome).toEqual({ held: false, holder: 'http://a.test/' });
    expect(await indexedIds()).toEqual([pageIdForUrl('http://a.test/')]);
  });
});

describe('crawlInstead', () => {
  it('follows a same-site canonical, never an off-site one or one pointing back', () => {
    expect(crawlInstead('http://a.test/amp/x', 'http://a.test/x', undefined)).toBe('http://a.test/x');
    expect(crawlInstead('http://a.test/amp/x', 'https://www.a.test/x', {})).toBe('https://www.a.test/x');
    expect(crawlInstead('http://a.test/x', 'http://a.test/x', {})).toBeNull();
    expect(crawlInstead('http://a.test/x', null, {})).toBeNull();
    expect(crawlInstead('http://a.test/x', 'http://b.test/x', {})).toBeNull();
    expect(crawlInstead('http://a.test/x', 'http://a.test/y', { canonicalOf: 'http://a.test/y' })).toBeNull();
  });
});

describe('canonicalFromLinkHeader', () => {
  const base = 'http://a.test/files/report-print.pdf';

  it('reads rel="canonical" among other links, resolved against the URL that answered', () => {
    expect(canonicalFromLinkHeader('<http://a.test/files/report.pdf>; rel="canonical"', base)).toBe(
      'http://a.test/files/report.pdf',
    );
    expect(canonicalFromLinkHeader('<report.pdf>; rel=canonical', base)).toBe('http://a.test/files/report.pdf');
    expect(
      canonicalFromLinkHeader(
        '</style.css>; rel=preload; as=style, </files/report.pdf>; rel="Canonical alternate"',
        base,
      ),
    ).toBe('http://a.test/files/report.pdf');
  });

  it('gives none without a single http(s) canonical, or for a malformed header', () => {
    expect(canonicalFromLinkHeader(undefined, base)).toBeNull();
    expect(canonicalFromLinkHeader('<http://a.test/feed>; rel="alternate"', base)).toBeNull();
    expect(
      canonicalFromLinkHeader('<http://a.test/a>; rel=canonical, <http://a.test/b>; rel=canonical', base),
    ).toBeNull();
    expect(canonicalFromLinkHeader('<mailto:x@a.test>; rel=canonical', base)).toBeNull();
    expect(canonicalFromLinkHeader('not a link header', base)).toBeNull();
  });
});
