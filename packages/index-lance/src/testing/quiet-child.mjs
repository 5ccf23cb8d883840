// Child process of quiet.int.test.ts: fills an index at argv[2] past its exact count, asks it query
// shapes whose totals are estimated (a lone Chinese character is counted apart, in the sample),
// and prints each total; the test reads this process's stderr, where the engine's native code logs.
import { LanceSearchIndex } from '@quarry/index-lance';
import { parseQuery } from '@quarry/query';
// The fixtures alone: the package's entry point loads Jest's globals, which a plain process cannot.
import { makePage } from '../../../index-contract/dist/fixtures.js';

const index = await LanceSearchIndex.open({
  path: process.argv[2],
  maxCountedMatches: 5,
  maxUnindexedRows: 10,
  maxUnindexedAgeMs: 100,
});
await index.upsert(
  Array.from({ length: 120 }, (_, n) =>
    n % 2
      ? makePage(
          `doc${n}`,
          `https://quiet.example.org/${n}`,
          `Harbour page ${n}`,
          `The harbour ferry timetable, page ${n}. ${'Boats leave the harbour at dawn. '.repeat(5)}`,
        )
      : makePage(
          `doc${n}`,
          `https://quiet.example.org/${n}`,
          `记者 ${n}`,
          `记者报道了港口的渡轮时刻表。第${n}页。${'船在黎明离开港口。'.repeat(5)}`,
          { lang: 'zh' },
        ),
  ),
);
await index.flush();
// Folded into the full-text indexes (maxUnindexedAgeMs), as pages are once an index has run a while.
await new Promise((resolve) => setTimeout(resolve, 2000));
for (const q of ['记', '记者', 'harbour', '"harbour ferry"', 'harbour -ferry', 'ferry OR dawn']) {
  const found = await index.search({ query: parseQuery(q), limit: 5, offset: 0 });
  process.stdout.write(`${q}\t${found.total}\t${found.totalIsEstimate}\n`);
}
await index.close();
