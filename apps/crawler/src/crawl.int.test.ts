import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApp } from '@quarry/api';
import { FileBlobStore } from '@quarry/blobstore';
import { loadConfig, type QuarryConfig } from '@quarry/core';
import { LanceSearchIndex } from '@quarry/index-lance';
import { openSqliteQueues, type Queues } from '@quarry/queue';
import { itWithServer, minimalPdf, odfPackage, type Site, startSite } from '@quarry/testkit';
import iconv from 'iconv-lite';
import { pino } from 'pino';
import request from 'supertest';
import XLSX from 'xlsx';
import { parseSeed } from './seeds.js';
import { crawlUntilIdle } from './testing.js';

const article = (title: string, body: string, extra = '') => `<!doctype html><html lang="en"><head>
<meta charset="utf-8"><title>${title}</title><meta name="author" content="Ada Lovelace">
<meta property="article:published_time" content="2025-06-01T10:00:00Z">${extra}</head>
<body><nav><a href="/">Home</a></nav><article><h1>${title}</h1>
${body
  .split('\n')
  .map((p) => `<p>${p}</p>`)
  .join('\n')}
</article></body></html>`;

const filler =
  'Quarry crawls pages politely and extracts the main text so that agents can search it. ' +
  'Every paragraph here is long enough for the readability algorithm to treat the page as an article worth keeping.';

/** A site with robots rules, a sitemap, an llms.txt, a GBK page, a script-built page, a PDF and hostile pages. */
/** A legacy Excel workbook (BIFF8 in an OLE2 container) of the hangars' crews. */
function crewSheet(): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    book,
    XLSX.utils.aoa_to_sheet([
      ['Dirigible', 'Crew'],
      ['Norge', 16],
    ]),
    'Crews',
  );
  return XLSX.write(book, { bookType: 'biff8', type: 'buffer' }) as Buffer;
}

function siteRoutes(origin: () => string) {
  const gbk = iconv.encode(
    `<html><head><title>搜索引擎测试页面</title></head><body><div id="content"><h1>搜索引擎测试页面</h1><p>${'这是一个用于测试中文网页抓取与全文检索的页面，内容包括分布式爬虫、网页正文抽取和中文分词。'.repeat(6)}</p><p>${'北京时间今天上午，研究人员发布了新的搜索引擎评测报告。'.repeat(6)}</p></div></body></html>`,
    'gbk',
  );
  const appPage = `<!doctype html><html lang="en"><head><title>Script app</title></head><body><div id="root"></div>
<noscript>You need to enable JavaScript to run this app.</noscript>
<script>fetch('/api/content.json').then(r => r.json()).then(d => {
  const root = document.getElementById('root');
  const h = document.createElement('h1'); h.textContent = d.title; root.appendChild(h);
  for (const p of d.paragraphs) { const el = document.createElement('p'); el.textContent = p; root.appendChild(el); }
  // A web component whose text is in its shadow tree, and in the light child its slot shows.
  customElements.define('x-note', class extends HTMLElement {
    connectedCallback() { this.attachShadow({ mode: 'open' }).innerHTML = '<p>The quince ledger is kept in a shadow tree.</p><slot></slot>'; }
  });
  const note = document.createElement('x-note'); note.innerHTML = '<p>Slotted damson notes.</p>'; root.appendChild(note);
});</script></body></html>`;
  // A topic page as a forum app serves it to a browser: a splash, its script named like no bundle,
  // and the AJAX crawling scheme's meta saying that scripts build it.
  const topicPage = `<!doctype html><html lang="en"><head><title>Forum topic</title><meta name="fragment" content="!">
<link rel="preload" href="/assets/topic.js" as="script"></head><body><section id="splash"><div class="dots"></div></section>
<script defer src="/assets/topic.js"></script></body></html>`;
  const topicScript = `document.getElementById('splash').remove();
const post = document.createElement('article');
post.innerHTML = '<h1>Rendered topic</h1>' + ${JSON.stringify(`<p>The okapi census of the forum is counted here. ${filler}</p><p>${filler}</p><p>${filler}</p>`)};
document.body.appendChild(post);`;
  return {
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: `User-agent: *\nDisallow: /\n\nUser-agent: QuarryBot\nDisallow: /private/\nAllow: /\n\nSitemap: ${origin()}/sitemap.xml\n`,
    },
    '/llms.txt': {
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: '# Fixture Site\n\n> A test site for Quarry.\n\n## Docs\n\n- [Article](/article.html): the main article\n- [Guide](/guide.html): a guide\n- [Aerostats](/aerostats.md): only listed here\n',
    },
    '/sitemap.xml': {
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin()}/from-sitemap.html</loc></url></urlset>`,
    },
    '/': {
      body: `<html><head><title>Fixture home</title><link rel="alternate" type="application/atom+xml" href="/declared.atom"></head><body><h1>Fixture home</h1><ul>
${[
  '/article.html',
  '/private/secret.html',
  '/gbk.html',
  '/app.html',
  '/topic.html',
  '/report.pdf',
  '/hidden.pdf',
  '/ledger-print.pdf',
  '/minutes.odt',
  '/handbook.md',
  '/llms.txt',
  '/feed.xml',
  '/download?id=7',
  '/get/8',
  '/brochure.doc',
  '/scan.html',
  '/crews.xls',
  '/export?doc=9',
  '/moved.html',
  '/gone-but-200.html',
  '/tagged.html',
  '/two-tags.html',
  '/own-meta.html',
  '/expired.html',
  '/drip.html',
  '/loop-a',
  '/endless.html',
  '/bomb.html',
  '/unlabelled-scan',
  '/binary.html',
  '/missing.html',
  '/broken.html',
  '/to-private',
  'http://127.0.0.2:9/elsewhere.html',
]
  .map((href) => `<li><a href="${href}">${href}</a></li>`)
  .join('\n')}</ul></body></html>`,
    },
    '/article.html': {
      body: article(
        'Zeppelin maintenance handbook',
        `Airship hangars need careful humidity control. ${filler}\nThe zeppelin envelope is inspected weekly. ${filler}\n${filler}`,
      ),
    },
    '/from-sitemap.html': {
      body: article('Only in the sitemap', `Nobody links to this orchid page. ${filler}\n${filler}`),
    },
    '/private/secret.html': { body: article('Secret', `classified quokka ${filler}`) },
    '/gbk.html': { headers: { 'content-type': 'text/html' }, body: gbk },
    '/app.html': { body: appPage },
    '/topic.html': { body: topicPage },
    '/assets/topic.js': { headers: { 'content-type': 'text/javascript' }, body: topicScript },
    '/api/content.json': {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Rendered by script',
        paragraphs: [`The marmalade protocol is described here. ${filler}`, filler, filler],
      }),
    },
    '/report.pdf': {
      headers: { 'content-type': 'application/pdf' },
      body: minimalPdf(['Quarterly dirigible report', 'Helium prices rose again this quarter.'], {
        title: 'Dirigible report',
      }),
    },
    // Indexing rules in the X-Robots-Tag header, and in a meta named after the crawler.
    '/hidden.pdf': {
      headers: { 'content-type': 'application/pdf', 'x-robots-tag': 'noindex' },
      body: minimalPdf(['Gondola timetable', 'Cable cars leave every ten minutes.'], { title: 'Gondola' }),
    },
    // A print copy names its canonical in the Link header (a PDF has no <link> element); nothing else
    // links the canonical.
    '/ledger-print.pdf': {
      headers: { 'content-type': 'application/pdf', link: '</ledger.pdf>; rel="canonical"' },
      body: minimalPdf(['Airship ledger, print copy', 'Watermarked copy of the hangar ledger.'], { title: 'Ledger' }),
    },
    // An OpenDocument text, as public bodies publish their minutes.
    '/minutes.odt': {
      headers: { 'content-type': 'application/vnd.oasis.opendocument.text' },
      body: odfPackage(
        'application/vnd.oasis.opendocument.text',
        '<office:text><text:h text:outline-level="1">Hangar committee minutes</text:h>' +
          '<text:p>The committee approved the new<text:s/>mooring mast.</text:p></office:text>',
        '<dc:title>Committee minutes</dc:title><meta:initial-creator>Grace Hopper</meta:initial-creator>',
      ),
    },
    // Markdown files, as llms.txt links them: one declared, one served as plain text by its extension.
    '/handbook.md': {
      headers: { 'content-type': 'text/markdown; charset=utf-8' },
      body: '---\ntitle: Blimp handbook\nauthor: Amelia Earhart\ndate: 2025-04-02\n---\n\n# Blimps\n\nA **blimp** keeps its shape by pressure. See [the checklist](checklist.md).\n',
    },
    // A news feed, linked like any page: its items are crawled, the feed itself is not indexed.
    '/feed.xml': {
      headers: { 'content-type': 'application/rss+xml' },
      body: `<?xml version="1.0"?><rss version="2.0"><channel><title>Hangar news</title><link>${origin()}/</link><item><title>Mooring</title><link>${origin()}/from-feed.html</link></item></channel></rss>`,
    },
    // A feed only the home page's head declares.
    '/declared.atom': {
      headers: { 'content-type': 'application/atom+xml' },
      body: `<feed xmlns="http://www.w3.org/2005/Atom"><title>Declared</title><entry><title>Windsock</title><link href="${origin()}/from-declared-feed.html"/></entry></feed>`,
    },
    '/from-declared-feed.html': {
      body: article('Only in the declared feed', `The windsock shows the wind over the airfield. ${filler}\n${filler}`),
    },
    '/from-feed.html': {
      body: article('Only in the feed', `The dirigible mooring tower news. Zeppelinhafen opened. ${filler}\n${filler}`),
    },
    // An old address that sends readers on with an instant meta refresh (quoted, relative).
    '/moved.html': {
      body: `<html><head><meta http-equiv="Refresh" content="0; URL='/new-home.html'"><title>Moved</title></head><body><p>This page was relocated.</p></body></html>`,
    },
    // A missing page the site answers with 200 all the same.
    '/gone-but-200.html': {
      body: '<html><head><title>Page Not Found | Fixture</title></head><body><h1>Oops!</h1><p>We looked everywhere for this zeppelin spare part but could not find it.</p></body></html>',
    },
    '/new-home.html': {
      body: article('The new home', `The hangar doors now open sideways. ${filler}\n${filler}`),
    },
    '/aerostats.md': {
      headers: { 'content-type': 'text/markdown' },
      body: '# Aerostats\n\nAn aerostat floats because it is lighter than the air around it.\n',
    },
    '/checklist.md': {
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: '# Preflight checklist\n\n1. Check the *ballonet* valves.\n2. Release the mooring line.\n',
    },
    // Downloads served as octet streams: named by their Content-Disposition, or only by their bytes.
    '/download?id=7': {
      headers: {
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename="Hangar rules.pdf"; filename*=UTF-8''Hangar%20rules.pdf`,
      },
      body: minimalPdf(['Hangar rules', 'No open flames near the gasbag.'], { title: 'Hangar rules' }),
    },
    '/get/8': {
      headers: { 'content-type': 'application/octet-stream' },
      body: minimalPdf(['Tether inspection', 'Every tether is inspected for fraying.'], { title: 'Tethers' }),
    },
    // PDFs served as what they are not: a Word file, and a page (as a server naming every file one).
    '/brochure.doc': {
      headers: { 'content-type': 'application/msword' },
      body: minimalPdf(['Envelope brochure', 'Rip-stop envelopes for every airship.'], { title: 'Envelopes' }),
    },
    '/scan.html': {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: minimalPdf(['Scanned logbook', 'The logbook records each ascent and its ballast.']),
    },
    // Office files served as text (a server naming every file so): typed by their name, or their bytes.
    '/crews.xls': { headers: { 'content-type': 'text/plain' }, body: crewSheet() },
    '/export?doc=9': {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: odfPackage(
        'application/vnd.oasis.opendocument.text',
        '<office:text><text:p>The winch crew rewinds every tether after landing.</text:p></office:text>',
      ),
    },
    '/ledger.pdf': {
      headers: { 'content-type': 'application/pdf' },
      body: minimalPdf(['Airship ledger', 'The hangar ledger lists every mooring fee.'], { title: 'Ledger' }),
    },
    '/tagged.html': {
      headers: { 'content-type': 'text/html', 'x-robots-tag': 'otherbot: noindex, QuarryBot: nofollow' },
      body: article('Tagged page', `The narwhal page links onwards. ${filler}\n${filler}`).replace(
        '</article>',
        '<a href="/behind-nofollow.html">next</a></article>',
      ),
    },
    '/behind-nofollow.html': { body: article('Behind', `Axolotl. ${filler}\n${filler}`) },
    // Two headers: the bot named in the first does not take the second, meant for every crawler.
    '/two-tags.html': {
      headers: { 'content-type': 'text/html', 'x-robots-tag': ['otherbot: nofollow', 'noindex'] },
      body: article('Two tags', `The quokka page. ${filler}\n${filler}`),
    },
    '/own-meta.html': {
      body: article('Own meta', `The pangolin page. ${filler}\n${filler}`, '<meta name="quarrybot" content="noindex">'),
    },
    '/expired.html': {
      headers: { 'content-type': 'text/html', 'x-robots-tag': 'unavailable_after: 25 Jun 2010 15:00:00 PST' },
      body: article('Expired offer', `The capybara offer ended. ${filler}\n${filler}`),
    },
    '/drip.html': (_req: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const timer = setInterval(() => res.write('x'), 200);
      res.on('close', () => clearInterval(timer));
    },
    '/loop-a': { status: 302, headers: { location: '/loop-b' } },
    '/loop-b': { status: 302, headers: { location: '/loop-a' } },
    '/endless.html': (_req: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<!doctype html><title>Endless ledger</title><p>The axolotl ledger begins here.</p><p>');
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (res.write(chunk)) {
          /* keep writing until the socket pushes back */
        }
      };
      res.on('drain', pump);
      res.on('close', () => res.off('drain', pump));
      pump();
    },
    '/bomb.html': {
      headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' },
      body: gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)),
    },
    // A PDF over the limit sent without a Content-Type: a cut document is no document.
    '/unlabelled-scan': (_req: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(200);
      res.end(Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(3 * 1024 * 1024, 0x20)]));
    },
    '/binary.html': {
      headers: { 'content-type': 'text/html' },
      body: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)),
    },
    '/broken.html': { status: 500, body: 'oops' },
    '/to-private': { status: 302, headers: { location: 'http://10.0.0.1/admin' } },
  };
}

describe('crawling a local site end to end', () => {
  let site: Site;
  let dir: string;
  let config: QuarryConfig;
  let queues: Queues;
  let index: LanceSearchIndex;
  let blobs: FileBlobStore;

  beforeAll(async () => {
    let origin = '';
    site = await startSite(siteRoutes(() => origin));
    origin = site.origin;
    dir = mkdtempSync(join(tmpdir(), 'quarry-crawl-'));
    config = loadConfig({
      QUARRY_DATA_DIR: dir,
      QUARRY_ALLOW_HOSTS: '127.0.0.1',
      QUARRY_HOST_DELAY_MS: '0',
      QUARRY_CRAWL_CONCURRENCY: '4',
      LOG_LEVEL: 'silent',
    });
    // Retries come at once: the hostile pages' failures (http_500, total_timeout) are the same
    // after their three tries, whether two seconds apart (the default) or 50 ms.
    queues = openSqliteQueues({ path: join(dir, 'queue.db'), hostDelayMs: 0, retryBaseDelayMs: 50 });
    index = await LanceSearchIndex.open({ path: join(dir, 'index') });
    blobs = new FileBlobStore({ dir: join(dir, 'blobs') });
    await crawlUntilIdle({
      config,
      queues,
      index,
      blobs,
      fetch: { totalTimeoutMs: 1500, maxBodyBytes: 2 * 1024 * 1024, maxRedirects: 5 },
      pollMs: 300,
      queue: (crawler) => crawler.addSeeds([parseSeed(`${origin}/ depth=2 pages=100`)]),
    });
  }, 90_000);

  afterAll(async () => {
    await queues?.close();
    await index?.close();
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const search = (q: string) =>
    request(createApp({ config, index, blobs, logger: pino({ level: 'silent' }) }))
      .get('/api/v1/search')
      .query({ q });

  it('indexes the article with its metadata and the llms.txt flag', async () => {
    const res = await search('zeppelin');
    expect(res.status).toBe(200);
    const hit = res.body.results.find((r: { url: string }) => r.url.endsWith('/article.html'));
    expect(hit).toMatchObject({ source: 'local', lang: 'en', has_llms_txt: true, domain: '127.0.0.1' });
    const content = await request(createApp({ config, index, blobs, logger: pino({ level: 'silent' }) })).get(
      `/api/v1/content/${hit.id}`,
    );
    expect(content.status).toBe(200);
    expect(content.body.author).toBe('Ada Lovelace');
    expect(content.body.published_at).toBe('2025-06-01T10:00:00Z');
    expect(content.body.body_text).toContain('humidity control');
    expect(content.body.word_count).toBeGreaterThan(50);
  });

  it('follows robots.txt for its own group and never fetches disallowed pages', async () => {
    expect(site.hits.get('/private/secret.html')).toBeUndefined();
    expect((await search('quokka')).body.results).toHaveLength(0);
    expect(site.hits.get('/robots.txt')).toBe(1);
  });

  it('discovers pages from the sitemap', async () => {
    expect((await search('orchid')).body.results).toHaveLength(1);
  });

  it('decodes the GBK page without a declared charset and finds it in Chinese', async () => {
    const res = await search('搜索引擎');
    expect(res.body.results.map((r: { url: string }) => r.url)).toContain(`${site.origin}/gbk.html`);
    expect(res.body.results[0].lang).toBe('zh');
  });

  it('indexes the PDF with its file type', async () => {
    const res = await search('dirigible filetype:pdf');
    expect(res.body.results).toHaveLength(1);
    expect(res.body.results[0].url).toBe(`${site.origin}/report.pdf`);
  });

  it('indexes PDFs served as octet streams, named by their Content-Disposition or their bytes', async () => {
    const named = await search('gasbag filetype:pdf');
    expect(named.body.results.map((r: { url: string; title: string }) => [r.url, r.title])).toEqual([
      [`${site.origin}/download?id=7`, 'Hangar rules'],
    ]);
    const sniffed = await search('fraying filetype:pdf');
    expect(sniffed.body.results.map((r: { url: string }) => r.url)).toEqual([`${site.origin}/get/8`]);
  });

  it('types a PDF served as a Word file or as a page by its bytes', async () => {
    const brochure = await search('envelopes filetype:pdf');
    expect(brochure.body.results.map((r: { url: string }) => r.url)).toEqual([`${site.origin}/brochure.doc`]);
    expect((await search('envelopes filetype:doc')).body.results).toEqual([]);
    const scan = await search('logbook ballast filetype:pdf');
    expect(scan.body.results.map((r: { url: string }) => r.url)).toEqual([`${site.origin}/scan.html`]);
  });

  it('types Office files served as text by their name or their bytes, rather than refusing them as binary', async () => {
    const sheet = await search('dirigible filetype:xls');
    expect(sheet.body.results.map((r: { url: string }) => r.url)).toEqual([`${site.origin}/crews.xls`]);
    const exported = await search('winch rewinds filetype:doc');
    expect(exported.body.results.map((r: { url: string }) => r.url)).toEqual([`${site.origin}/export?doc=9`]);
  });

  it('indexes the OpenDocument text as a doc, with its properties', async () => {
    const res = await search('mooring mast filetype:doc');
    expect(res.body.results.map((r: { url: string }) => r.url)).toEqual([`${site.origin}/minutes.odt`]);
    expect(res.body.results[0].title).toBe('Committee minutes');
    const content = await request(createApp({ config, index, blobs, logger: pino({ level: 'silent' }) })).get(
      `/api/v1/content/${res.body.results[0].id}`,
    );
    expect(content.body.author).toBe('Grace Hopper');
    expect(content.body.body_text).toBe('Hangar committee minutes\n\nThe committee approved the new mooring mast.');
  });

  it('indexes markdown files as their rendered text and follows their links', async () => {
    const handbook = await search('blimp pressure');
    expect(handbook.body.results.map((r: { url: string }) => r.url)).toEqual([`${site.origin}/handbook.md`]);
    expect(handbook.body.results[0]).toMatchObject({ title: 'Blimp handbook', published_at: '2025-04-02T00:00:00Z' });
    const content = await request(createApp({ config, index, blobs, logger: pino({ level: 'silent' }) })).get(
      `/api/v1/content/${handbook.body.results[0].id}?format=markdown`,
    );
    expect(content.body).toMatchObject({
      author: 'Amelia Earhart',
      body_text: 'Blimps\n\nA blimp keeps its shape by pressure. See the checklist.',
      // Its relative link resolved against the file's URL, as a page's are.
      body_markdown: `# Blimps\n\nA **blimp** keeps its shape by pressure. See [the checklist](${site.origin}/checklist.md).`,
    });
    // Linked only from the handbook, served as text/plain: read as markdown by its extension.
    // The llms.txt itself, linked from the home page, is markdown too.
    const llms = await search('"test site for quarry"');
    expect(llms.body.results.map((r: { url: string; title: string }) => [r.url, r.title])).toEqual([
      [`${site.origin}/llms.txt`, 'Fixture Site'],
    ]);
    const checklist = await search('ballonet');
    expect(checklist.body.results.map((r: { url: string; title: string }) => [r.url, r.title])).toEqual([
      [`${site.origin}/checklist.md`, 'Preflight checklist'],
    ]);
    expect(checklist.body.results[0].snippet).not.toContain('*');
  });

  it("crawls a feed's items without indexing the feed", async () => {
    const res = await search('zeppelinhafen');
    expect(res.body.results.map((r: { url: string }) => r.url)).toEqual([`${site.origin}/from-feed.html`]);
    expect((await search('hangar news')).body.results.map((r: { url: string }) => r.url)).not.toContain(
      `${site.origin}/feed.xml`,
    );
    const stats = await queues.crawl.stats();
    // The feed, the sitemap robots.txt declares and the feed the home page declares (read as tasks of their own).
    const lists = stats.reasons.find((r) => r.state === 'skipped' && r.reason === 'link_list');
    expect(lists?.count).toBe(3);
    expect(lists?.examples).toEqual(expect.arrayContaining([`${site.origin}/feed.xml`, `${site.origin}/sitemap.xml`]));
  });

  it('crawls the items of the feed the seed page declares in its head', async () => {
    const res = await search('windsock');
    expect(res.body.results.map((r: { url: string }) => r.url)).toEqual([`${site.origin}/from-declared-feed.html`]);
    expect(site.hits.get('/declared.atom')).toBe(1);
  });

  it('crawls the target of an instant meta refresh instead of the page that has it', async () => {
    expect((await search('hangar doors sideways')).body.results.map((r: { url: string }) => r.url)).toEqual([
      `${site.origin}/new-home.html`,
    ]);
    expect((await search('relocated')).body.results).toHaveLength(0);
    const stats = await queues.crawl.stats();
    expect(stats.reasons.find((r) => r.state === 'skipped' && r.reason === 'meta_refresh')?.count).toBe(1);
  });

  it('does not index a "page not found" served with 200', async () => {
    expect((await search('spare part')).body.results).toHaveLength(0);
    const stats = await queues.crawl.stats();
    expect(stats.reasons.find((r) => r.state === 'skipped' && r.reason === 'soft_404')?.count).toBe(1);
  });

  it('crawls the pages the llms.txt lists', async () => {
    const res = await search('aerostat floats');
    expect(res.body.results.map((r: { url: string }) => r.url)).toEqual([`${site.origin}/aerostats.md`]);
  });

  it('honours X-Robots-Tag (noindex, nofollow, unavailable_after) and a robots meta named after it', async () => {
    // A PDF kept out by its header is fetched, never parsed or indexed.
    expect(site.hits.get('/hidden.pdf')).toBe(1);
    expect((await search('gondola')).body.results).toHaveLength(0);
    expect((await search('capybara')).body.results).toHaveLength(0);
    expect((await search('pangolin')).body.results).toHaveLength(0);
    expect(site.hits.get('/two-tags.html')).toBe(1);
    expect((await search('quokka')).body.results).toHaveLength(0);
    // otherbot's noindex is not ours; our nofollow is.
    expect((await search('narwhal')).body.results).toHaveLength(1);
    expect(site.hits.get('/behind-nofollow.html')).toBeUndefined();
    const stats = await queues.crawl.stats();
    const noindex = stats.reasons.find((r) => r.state === 'skipped' && r.reason === 'noindex');
    expect(noindex?.count).toBe(4);
  });

  it("crawls and indexes the canonical a document's Link header names instead of the document", async () => {
    const res = await search('ledger filetype:pdf');
    expect(res.body.results.map((r: { url: string }) => r.url)).toEqual([`${site.origin}/ledger.pdf`]);
    expect((await search('watermarked')).body.results).toHaveLength(0);
    expect(site.hits.get('/ledger.pdf')).toBe(1);
    const stats = await queues.crawl.stats();
    const elsewhere = stats.reasons.find((r) => r.state === 'skipped' && r.reason === 'canonical_elsewhere');
    expect(elsewhere?.count).toBe(1);
  });

  itWithServer('chromium', 'renders the script-built page in Chromium', async () => {
    const res = await search('marmalade');
    expect(res.body.results.map((r: { url: string }) => r.url)).toContain(`${site.origin}/app.html`);
    // Text in a web component's shadow tree, and in the light child its slot shows.
    for (const word of ['quince', 'damson']) {
      expect((await search(word)).body.results.map((r: { url: string }) => r.url)).toEqual([`${site.origin}/app.html`]);
    }
    // A shell whose script name says nothing, known by its fragment meta and its preloaded script.
    const topic = await search('okapi census');
    expect(topic.body.results.map((r: { url: string }) => r.url)).toEqual([`${site.origin}/topic.html`]);
  });

  it('survives hostile pages and records why each failed', async () => {
    const stats = await queues.crawl.stats();
    const reasons = new Map(stats.topFailures.map((f) => [f.reason, f.count]));
    // drip → total_timeout. The endless body and the gzip bomb are HTML, read to the limit; the
    // unlabelled PDF is cut there too, and then refused.
    expect([...reasons.keys()].sort()).toEqual(
      ['binary_content', 'http_404', 'http_500', 'redirect_loop', 'too_large', 'total_timeout'].sort(),
    );
    expect(stats.reasons.find((r) => r.reason === 'too_large')?.examples).toEqual([`${site.origin}/unlabelled-scan`]);
    // Its first 2 MiB hold the endless page's text; the bomb's are spaces.
    const endless = await search('axolotl ledger');
    expect(endless.body.results.map((r: { url: string }) => r.url)).toEqual([`${site.origin}/endless.html`]);
    const noText = stats.reasons.find((r) => r.state === 'skipped' && r.reason === 'no_text');
    expect(noText?.examples).toContain(`${site.origin}/bomb.html`);
    // A redirect to 10.0.0.1 is refused by the address policy: a skip with its true reason (it was
    // a failure `ssrf_blocked` before issue 10), distinct from the robots-disallowed link.
    const skips = new Map(stats.reasons.filter((r) => r.state === 'skipped').map((r) => [r.reason, r]));
    expect(skips.get('blocked_address')?.count).toBe(1);
    expect(skips.get('robots_disallowed')?.count).toBeGreaterThanOrEqual(1);
    // Out-of-scope and private targets are never contacted.
    expect(site.hits.get('/elsewhere.html')).toBeUndefined();
    expect(await index.count()).toBeGreaterThanOrEqual(5);
  });
});
