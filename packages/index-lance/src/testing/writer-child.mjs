// Child process of crash.int.test.ts: writes batches of pages to the index at argv[2] and prints
// "ack <n>" once each batch's upsert has resolved, until it is killed.
import { LanceSearchIndex } from '@quarry/index-lance';
import { testPage } from './test-page.mjs';

const BATCH = 50;
const index = await LanceSearchIndex.open({ path: process.argv[2], maxUnindexedRows: 200, maxUnindexedAgeMs: 500 });
for (let batch = 0; ; batch++) {
  const docs = Array.from({ length: BATCH }, (_, j) => {
    const n = batch * BATCH + j;
    return testPage(n, {
      host: 'crash.example.org',
      title: `Page ${n}`,
      text: `Acknowledged page number ${n} with the marker crashmark${n}. ${'Filler words about durable writes. '.repeat(20)}`,
      words: 100,
    });
  });
  await index.upsert(docs);
  process.stdout.write(`ack ${(batch + 1) * BATCH}\n`);
}
