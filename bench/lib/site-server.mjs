// A generated web site for the crawl benchmarks, run as a child process so that its CPU does not
// count against the crawler. argv: root, pagesPerHost, host... ; prints "ready <json ports>" when listening.
import { createServer } from 'node:http';
import { loadTemplatePages, withLinks, withoutOwnLinks } from './corpus-pages.mjs';

const [root, pagesArg, ...hosts] = process.argv.slice(2);
// Exit with the parent: it holds our stdin open.
process.stdin.on('end', () => process.exit(0)).resume();
const pagesPerHost = Number(pagesArg);
const templates = loadTemplatePages(root)?.map((t) => ({ ...t, bytes: withoutOwnLinks(t.bytes) })) ?? null;
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
    const type = template.kind === 'chinese' ? 'text/html' : 'text/html; charset=utf-8';
    res.writeHead(200, { 'content-type': type }).end(withLinks(template.bytes, linksOf(i)));
  });
  server.listen(0, host, () => {
    ports[host] = server.address().port;
    if (++ready === hosts.length) console.log(`ready ${JSON.stringify(ports)}`);
  });
});
