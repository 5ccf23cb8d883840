// Child process of other-writer.int.test.ts: opens the index in the folder given as the first
// argument (without background folds) and, for each message `{ pages: [n, ...] }`, writes those pages
// in one upsert and answers `{ written: [n, ...] }` once it has resolved.
import { LanceSearchIndex } from '../../dist/index.js';

const index = await LanceSearchIndex.open({ path: process.argv[2], autoMaintain: false });
process.on('message', async ({ pages }) => {
  await index.upsert(
    pages.map((n) => ({
      id: `doc${n}`,
      url: `https://writer.example.org/${n}`,
      title: `Report ${n}`,
      body_text: `The surveyor filed report marker${n} from the ridge. ${'Notes on the survey of the ridge. '.repeat(10)}`,
      lang: n % 2 === 0 ? 'en' : 'de',
      author: null,
      published_at: null,
      crawled_at: '2026-11-01T00:00:00Z',
      site_name: null,
      has_llms_txt: false,
      filetype: 'html',
      domain: 'writer.example.org',
      word_count: 40,
    })),
  );
  process.send({ written: pages });
});
process.on('disconnect', () => index.close().then(() => process.exit(0)));
process.send({ ready: true });
