// Extraction, this checkout against another build of it, in one process: speed with the two builds
// interleaved page by page (a 2-core machine's speed drifts 25–50% between runs minutes apart, so
// two separate runs cannot show a change of a few per cent), and optionally which pages' output
// differs. Both checkouts must be built (`npx tsc -b`) with their own node_modules, so a patched
// dependency is compared too:
//   git worktree add /tmp/before HEAD~1 && (cd /tmp/before && npm ci)
//   node bench/extract-ab.mjs --against /tmp/before [--passes 8] [--no-markdown] [--outputs]
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadExtractSets, readabilitySources } from './lib/extract-sets.mjs';
import { printResults } from './lib/table.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const TESTDATA = join(HERE, '../../shared/testdata');
const BUILT = 'packages/extract/dist/index.js';

/**
 * Each build's time over `pages` (`builds[0]` the other checkout, `builds[1]` this one), page by page
 * interleaved, which goes first alternating per page and pass; and this one's time over the other's per pass.
 */
function interleaved(builds, pages, passes, markdown) {
  const totals = builds.map(() => 0);
  const ratios = [];
  // The first pass warms both builds up and is not counted.
  for (let pass = 0; pass <= passes; pass++) {
    const times = builds.map(() => 0);
    pages.forEach((page, i) => {
      const order = (pass + i) % 2 === 0 ? [0, 1] : [1, 0];
      for (const b of order) {
        const start = performance.now();
        builds[b].extractHtml(page.html, { url: page.url, dom: 'linkedom', markdown });
        times[b] += performance.now() - start;
      }
    });
    if (pass === 0) continue;
    times.forEach((ms, b) => {
      totals[b] += ms;
    });
    ratios.push(times[1] / times[0]);
  }
  return { totals, ratios };
}

/** The pages of every shared set whose extracted output differs between the two builds. */
function differingPages(builds) {
  const differ = [];
  let pages = 0;
  for (const set of loadExtractSets(TESTDATA)) {
    for (const page of set.pages) {
      const html = page.html();
      const [a, b] = builds.map((build) =>
        createHash('sha1')
          .update(JSON.stringify(build.extractHtml(html, { url: page.url, dom: 'linkedom' })))
          .digest('hex'),
      );
      pages++;
      if (a !== b) differ.push(`${set.id}/${page.name}`);
    }
  }
  return { pages, differ };
}

async function main() {
  const { values } = parseArgs({
    options: {
      against: { type: 'string' },
      passes: { type: 'string', default: '8' },
      'no-markdown': { type: 'boolean' },
      outputs: { type: 'boolean' },
    },
  });
  const other = values.against ? resolve(values.against) : '';
  const passes = Number(values.passes);
  if (!other || !existsSync(join(other, BUILT)) || !Number.isInteger(passes) || passes < 1) {
    console.error(
      'usage: node bench/extract-ab.mjs --against OTHER_CHECKOUT [--passes N] [--no-markdown] [--outputs]\n' +
        `  OTHER_CHECKOUT must hold a built ${BUILT} (run npm ci there)`,
    );
    process.exitCode = 2;
    return;
  }
  const builds = [
    await import(pathToFileURL(join(other, BUILT)).href),
    await import(pathToFileURL(join(HERE, '..', BUILT)).href),
  ];
  const pages = readabilitySources(TESTDATA);
  if (pages.length === 0) {
    console.log(`skipped: no Readability test pages under ${TESTDATA}`);
    return;
  }
  const markdown = !values['no-markdown'];
  const { totals, ratios } = interleaved(builds, pages, passes, markdown);
  const rate = (ms) => ((passes * pages.length * 1000) / ms).toFixed(1);
  const sorted = [...ratios].sort((x, y) => x - y);
  const results = [
    {
      title: `Extraction speed, interleaved page by page (${pages.length} Readability pages, ${passes} passes${markdown ? '' : ', no markdown'})`,
      rows: [
        { build: other, 'pages/s': rate(totals[0]), 'speed vs other': '1.000' },
        {
          build: 'this checkout',
          'pages/s': rate(totals[1]),
          'speed vs other': (totals[0] / totals[1]).toFixed(3),
        },
      ],
      notes: [
        `per pass, this checkout's time over the other's: ${ratios.map((r) => r.toFixed(3)).join(' ')}`,
        `a change is real when every pass leans the same way (here ${sorted[0]?.toFixed(3)}–${sorted.at(-1)?.toFixed(3)})`,
      ],
    },
  ];
  if (values.outputs) {
    const { pages: compared, differ } = differingPages(builds);
    results.push({
      title: 'Extracted output, this checkout against the other',
      rows: [{ pages: compared, differing: differ.length, first: differ.slice(0, 10).join(' ') || '-' }],
      notes: ['every field of extractHtml’s result (text, markdown, metadata), linkedom, all shared sets'],
    });
  }
  printResults(results);
}

await main();
