// A large generated web site for the soak benchmark (bench/soak.mjs), run as a child process. Every
// page is a real WCXB page (../shared/testdata/wcxb-dev/dev/html), served at many URLs and made a
// page of its own at each: a title and an opening sentence naming the URL, a quarter of its
// paragraphs swapped for paragraphs of other pages, and 20 links to other pages of its host (and a
// sitemap of its first pages), so the crawl discovers the site as a real one's and indexes every
// page rather than skipping copies.
// argv: root, pagesPerHost, host... ; prints "ready <json ports>" when listening (`ready null` when the
// test data is absent) and answers a "cpu" line on stdin with "cpu <ms>".
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { linkBlock, testdataDir } from './corpus-pages.mjs';

const [root, pagesArg, ...hosts] = process.argv.slice(2);
process.stdin.on('end', () => process.exit(0));
process.stdin.setEncoding('utf8').on('data', (line) => {
  if (line.includes('cpu')) {
    const { user, system } = process.cpuUsage();
    console.log(`cpu ${(user + system) / 1000}`);
  }
});
const pagesPerHost = Number(pagesArg);
/** Links on a page to other pages of its host. */
const LINKS_PER_PAGE = 20;
/** Pages listed in each host's /sitemap.xml (the first ones; the rest are found by links). */
const SITEMAP_PAGES = 2000;
/** Paragraphs of a template considered for swapping (a few pages have thousands). */
const MAX_SLOTS = 300;
/** A template is used when it has at least this many paragraphs (the swaps and the sentence need one). */
const MIN_SLOTS = 3;

/** A 32-bit hash of a few integers (FNV-1a over their bytes), for deterministic choices per URL. */
function hash(...values) {
  let h = 0x811c9dc5;
  for (const v of values) {
    for (let k = 0; k < 4; k++) {
      h ^= (v >>> (k * 8)) & 0xff;
      h = Math.imul(h, 0x01000193) >>> 0;
    }
  }
  return h;
}

/**
 * A template split once at load: `parts` alternate static Buffers and paragraph contents (the
 * odd entries), so a request costs a few writes; the title text apart.
 */
function prepare(html) {
  const text = html.replace(/(<(?:a|link)\b[^>]*?\s)href=/gi, '$1data-href=');
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text);
  if (!title) return null;
  const bodyAt = text.search(/<body[\s>]/i);
  const endAt = text.toLowerCase().lastIndexOf('</body>');
  if (bodyAt < 0 || endAt < bodyAt) return null;
  const parts = [];
  let from = bodyAt;
  const body = text.slice(0, endAt);
  const re = /<p(?:\s[^>]*)?>([\s\S]*?)<\/p>/gi;
  re.lastIndex = bodyAt;
  for (let m = re.exec(body); m && parts.length / 2 < MAX_SLOTS; m = re.exec(body)) {
    const content = m[1];
    if (content.length < 60 || content.length > 3000 || /<p[\s>]/i.test(content)) continue;
    const start = m.index + m[0].length - 4 - content.length;
    parts.push(Buffer.from(text.slice(from, start)), Buffer.from(content));
    from = start + content.length;
  }
  if (parts.length / 2 < MIN_SLOTS) return null;
  parts.push(Buffer.from(text.slice(from, endAt)));
  return {
    head: Buffer.from(text.slice(0, title.index + title[0].length - 8)),
    titleEnd: Buffer.from(text.slice(title.index + title[0].length - 8, bodyAt)),
    parts,
    tail: Buffer.from(text.slice(endAt)),
  };
}

function loadTemplates() {
  const dir = join(testdataDir(root), 'wcxb-dev', 'dev', 'html');
  if (!existsSync(dir)) return null;
  const templates = [];
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.html.gz')) continue;
    const t = prepare(gunzipSync(readFileSync(join(dir, name))).toString('utf8'));
    if (t) templates.push(t);
  }
  return templates;
}

const templates = loadTemplates();
if (!templates || templates.length === 0) {
  console.log('ready null');
  process.exit(0);
}
/** Every template's paragraphs: what a page's swapped paragraphs are drawn from. */
const pool = templates.flatMap((t) => t.parts.filter((_, k) => k % 2 === 1));

/** Page i links to i+1, 2i+1 and 2i+2 (everything within a few hops) and to 17 pages drawn from its host. */
function linksOf(i, h) {
  const targets = new Set([i + 1, 2 * i + 1, 2 * i + 2]);
  for (let k = 0; targets.size < LINKS_PER_PAGE + 1 && k < 4 * LINKS_PER_PAGE; k++) {
    targets.add(hash(i, h, k, 7) % pagesPerHost);
  }
  targets.delete(i);
  return [...targets].filter((t) => t < pagesPerHost).map((t) => `/p/${t}.html`);
}

function sitemap(origin) {
  const n = Math.min(SITEMAP_PAGES, pagesPerHost);
  const urls = Array.from({ length: n }, (_, i) => `<url><loc>${origin}/p/${i}.html</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>\n`;
}

function servePage(res, i, h) {
  const t = templates[hash(i, h, 1) % templates.length];
  const id = `${h}x${i.toString(36)}`;
  const word = pool[hash(i, h, 2) % pool.length].toString('utf8').split(/\s+/).slice(0, 6).join(' ');
  const titleSuffix = Buffer.from(` | entry ${id}`);
  const sentence = Buffer.from(`Entry ${id} of this site, on ${word.replace(/[<>&]/g, ' ')}. `);
  const chunks = [t.head, titleSuffix, t.titleEnd];
  t.parts.forEach((part, k) => {
    if (k % 2 === 0) {
      chunks.push(part);
      return;
    }
    if (k === 1) chunks.push(sentence);
    // A quarter of the paragraphs come from other pages, chosen by the URL.
    const r = hash(i, h, k, 3);
    chunks.push(r % 4 === 0 ? pool[(r >>> 2) % pool.length] : part);
  });
  chunks.push(linkBlock(linksOf(i, h)), t.tail);
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': chunks.reduce((n, c) => n + c.length, 0),
  });
  res.cork();
  for (const c of chunks) res.write(c);
  res.end();
}

const ports = {};
let ready = 0;
hosts.forEach((host, h) => {
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const origin = `http://${req.headers.host}`;
    if (url === '/robots.txt') {
      return res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(`User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`);
    }
    if (url === '/sitemap.xml') return res.writeHead(200, { 'content-type': 'application/xml' }).end(sitemap(origin));
    const m = /^\/p\/(\d+)\.html$/.exec(url);
    const i = m ? Number(m[1]) : url === '/' ? 0 : -1;
    if (i < 0 || i >= pagesPerHost) return res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>404</h1>');
    servePage(res, i, h);
  });
  server.listen(0, host, () => {
    ports[host] = server.address().port;
    if (++ready === hosts.length) console.log(`ready ${JSON.stringify(ports)}`);
  });
});
