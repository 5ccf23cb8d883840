// Child process of crash.int.test.ts: writes batches of pages to the index at argv[2] and prints
// "ack <n>" once each batch's upsert has resolved, until it is killed.
import { LanceSearchIndex } from '@quarry/index-lance';

const BATCH = 50;
const index = await LanceSearchIndex.open({ path: process.argv[2], maxUnindexedRows: 200, maxUnindexedAgeMs: 500 });
for (let batch = 0; ; batch++) {
  const docs = Array.from({ length: BATCH }, (_, j) => {
    const n = batch * BATCH + j;
    return {
      id: `doc${n}`,
      url: `https://crash.example.org/${n}`,
      title: `Page ${n}`,
      body_text: `Acknowledged page number ${n} with the marker crashmark${n}. ${'Filler words about durable writes. '.repeat(20)}`,
      lang: 'en',
      author: null,
      published_at: null,
      crawled_at: '2026-11-01T00:00:00Z',
      site_name: null,
      has_llms_txt: false,
      filetype: 'html',
      domain: 'crash.example.org',
      word_count: 100,
    };
  });
  await index.upsert(docs);
  process.stdout.write(`ack ${(batch + 1) * BATCH}\n`);
}
