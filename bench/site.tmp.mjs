import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { extractHtml } from '@quarry/extract';
import { decodeHtml } from '@quarry/fetcher';
const base = '../shared/testdata/wcxb-dev/dev/';
const out = {};
for (const f of readdirSync(base + 'html').sort()) {
  const n = f.slice(0, 4);
  const gt = JSON.parse(readFileSync(`${base}ground-truth/${n}.json`, 'utf8'));
  const html = decodeHtml(gunzipSync(readFileSync(`${base}html/${f}`))).text;
  out[n] = [extractHtml(html, { url: gt.url, markdown: false }).site_name, gt.url];
}
writeFileSync(process.argv[2], JSON.stringify(out));
