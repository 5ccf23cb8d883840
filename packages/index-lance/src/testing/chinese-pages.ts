import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makePage } from '@quarry/index-contract';
import { LanceSearchIndex } from '../lance-index.js';

/** The shared Chinese pages' reference texts (`testdata/chinese-pages/cleaned`). */
export const CHINESE_CLEANED = new URL('../../../../../shared/testdata/chinese-pages/cleaned', import.meta.url)
  .pathname;

/** The shared Chinese pages, by name, as their reference text. */
export function chinesePages(): { readonly id: string; readonly text: string }[] {
  return readdirSync(CHINESE_CLEANED)
    .filter((name) => name.endsWith('.txt'))
    .sort()
    .map((name) => ({ id: name.replace(/\.txt$/, ''), text: readFileSync(join(CHINESE_CLEANED, name), 'utf8') }));
}

/** A run of `length` Han characters from the middle of a text (the query a reader might copy). */
export function hanRun(text: string, length: number): string | null {
  const runs = text.match(/\p{Script=Han}{8,}/gu) ?? [];
  const run = runs[Math.floor(runs.length / 2)];
  if (!run) return null;
  const start = Math.floor((run.length - length) / 2);
  return run.slice(start, start + length);
}

/**
 * A new index in a temporary directory holding the pages (Chinese, titled by their first 20
 * characters), the first half folded into the full-text indexes and the rest still waiting: both
 * must be found. `close` closes it and removes the directory.
 */
export async function halfFoldedIndex(
  pages: readonly { readonly id: string; readonly text: string }[],
): Promise<{ readonly index: LanceSearchIndex; readonly dir: string; readonly close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-lance-zh-'));
  const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
  const docs = pages.map((page) =>
    makePage(page.id, `https://zh.example.cn/${page.id}`, page.text.slice(0, 20), page.text, { lang: 'zh' }),
  );
  await index.upsert(docs.slice(0, docs.length / 2));
  await index.flush();
  await index.upsert(docs.slice(docs.length / 2));
  return {
    index,
    dir,
    close: async () => {
      await index.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
