// Child process of other-writer.int.test.ts: opens the index in the folder given as the first
// argument (without background folds) and, for each message `{ pages: [n, ...] }`, writes those pages
// in one upsert and answers `{ written: [n, ...] }` once it has resolved.
import { LanceSearchIndex } from '../../dist/index.js';
import { testPage } from './test-page.mjs';

const index = await LanceSearchIndex.open({ path: process.argv[2], autoMaintain: false });
process.on('message', async ({ pages }) => {
  await index.upsert(
    pages.map((n) =>
      testPage(n, {
        host: 'writer.example.org',
        title: `Report ${n}`,
        text: `The surveyor filed report marker${n} from the ridge. ${'Notes on the survey of the ridge. '.repeat(10)}`,
        lang: n % 2 === 0 ? 'en' : 'de',
        words: 40,
      }),
    ),
  );
  process.send({ written: pages });
});
process.on('disconnect', () => index.close().then(() => process.exit(0)));
process.send({ ready: true });
