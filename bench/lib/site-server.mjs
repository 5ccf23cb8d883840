// A generated web site for the crawl benchmarks, run as a child process so that its CPU is not
// counted in the crawler's CPU figures (it still shares the cores, so it is kept cheap).
// argv: root, pagesPerHost, host... ; prints "ready <json ports>" when listening, and answers a
// "cpu" line on stdin with "cpu <ms>" (its CPU time so far).
import { createServer } from 'node:http';
import { linkBlock, loadTemplatePages, splitForLinks, splitForMarkers, withoutOwnLinks } from './corpus-pages.mjs';

const [root, pagesArg, ...hosts] = process.argv.slice(2);
// Exit with the parent: it holds our stdin open.
process.stdin.on('end', () => process.exit(0));
process.stdin.setEncoding('utf8').on('data', (line) => {
  if (line.includes('cpu')) {
    const { user, system } = process.cpuUsage();
    console.log(`cpu ${(user + system) / 1000}`);
  }
});
const pagesPerHost = Number(pagesArg);
// Each template is prepared once (own links neutralized, split where the link block goes): the
// server's CPU shares the machine with the crawler being measured, so a request must cost little.
const templates =
  loadTemplatePages(root)?.map((t) => {
    const { head, tail } = splitForLinks(withoutOwnLinks(t.bytes));
    const parts = splitForMarkers(head);
    return {
      ...t,
      parts,
      partsLength: parts.reduce((n, part) => n + part.length, 0),
      tail,
      type: t.kind === 'chinese' ? 'text/html' : 'text/html; charset=utf-8',
    };
  }) ?? null;
if (!templates) {
  console.log('ready null');
  process.exit(0);
}

/** Page i links to i+1, 2i+1 and 2i+2 (and a few others): everything is reachable within a few hops. */
function linksOf(i) {
  const targets = [i + 1, 2 * i + 1, 2 * i + 2, (i * 7 + 3) % pagesPerHost, (i * 13 + 5) % pagesPerHost];
  return [...new Set(targets.filter((t) => t < pagesPerHost && t !== i))].map((t) => `/p/${t}.html`);
}

const ports = {};
let ready = 0;
hosts.forEach((host, h) => {
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/robots.txt')
      return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    if (url === '/llms.txt' || url === '/sitemap.xml') return res.writeHead(404).end();
    const m = /^\/p\/(\d+)\.html$/.exec(url);
    const i = m ? Number(m[1]) : url === '/' ? 0 : -1;
    if (i < 0 || i >= pagesPerHost) return res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>404</h1>');
    const template = templates[(i + h * 17) % templates.length];
    const block = linkBlock(linksOf(i));
    // Each paragraph starts with the page's own marker: a page is a text of its own (see splitForMarkers).
    const marker = Buffer.from(`q${i}h${h} `);
    const markers = marker.length * (template.parts.length - 1);
    res.writeHead(200, {
      'content-type': template.type,
      'content-length': template.partsLength + markers + block.length + template.tail.length,
    });
    // One corked write of the parts, no concatenated copy of the page.
    res.cork();
    template.parts.forEach((part, k) => {
      if (k > 0) res.write(marker);
      res.write(part);
    });
    res.write(block);
    res.end(template.tail);
  });
  server.listen(0, host, () => {
    ports[host] = server.address().port;
    if (++ready === hosts.length) console.log(`ready ${JSON.stringify(ports)}`);
  });
});
