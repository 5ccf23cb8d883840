// Opens the index in the folder given as the first argument, at the time (ms since the epoch) given
// as the second, and closes it: one of the processes of the test of a new index opened by several
// processes at once. Prints `opened`, or the error.
import { LanceSearchIndex } from '../../dist/index.js';

await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(process.argv[3]) - Date.now())));
try {
  const index = await LanceSearchIndex.open({ path: process.argv[2], autoMaintain: false });
  await index.close();
  process.stdout.write('opened\n');
} catch (error) {
  process.stdout.write(`failed: ${error.message}: ${error.cause?.message ?? ''}\n`);
  process.exitCode = 1;
}
