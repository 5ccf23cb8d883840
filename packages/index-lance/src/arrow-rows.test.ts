import { makeArrowTable } from '@lancedb/lancedb';
import { rowsToArrow } from './arrow-rows.js';
import { type PageRow, pagesSchema } from './rows.js';

function row(i: number, overrides: Partial<PageRow> = {}): PageRow {
  return {
    id: `id-${i}`,
    url: `https://example.com/${i}`,
    title: `Title ${i}`,
    domain: 'example.com',
    site_name: i % 2 === 0 ? null : 'Example',
    lang: 'en',
    published_at: null,
    crawled_at: '2026-11-25T00:00:00.000Z',
    crawled_ms: 1_795_000_000_000 + i,
    seq: 7,
    bucket: i % 64,
    filetype: 'html',
    has_llms_txt: i % 3 === 0,
    quality: 0.5,
    simhash: null,
    snippet_src: `body ${i}`,
    sites: ['example.com', 'com'],
    t_title: `titl ${i}`,
    t_text: `titl ${i} ¶ bodi ${i}`,
    t_sample: '',
    meta: '_all _l_en',
    ...overrides,
  };
}

/** Every value of every column, as plain JSON. */
function plain(table: ReturnType<typeof rowsToArrow>): unknown[] {
  return table.toArray().map((r) => JSON.parse(JSON.stringify(r.toJSON())));
}

describe('rowsToArrow', () => {
  it('holds the same values as the engine’s own row conversion', () => {
    const rows = [
      row(0),
      // Multi-byte text of every width: Latin-1, CJK (3 bytes a unit), an astral emoji (4 bytes, 2 units).
      row(1, { title: 'Café 北京天气 🎉', snippet_src: '搜索引擎'.repeat(500), published_at: '2026-01-02T00:00:00Z' }),
      row(2, { t_text: '', simhash: 'abc' }),
    ];
    const schema = pagesSchema();
    expect(plain(rowsToArrow(rows, schema))).toEqual(plain(makeArrowTable(rows as never[], { schema }) as never));
  });

  it('keeps nulls apart from empty strings', () => {
    const table = rowsToArrow([row(0), row(1, { site_name: '' })], pagesSchema());
    expect(table.getChild('site_name')?.toArray()).toEqual([null, '']);
    expect(table.getChild('site_name')?.nullCount).toBe(1);
  });

  it('grows its buffer when the text takes more bytes than first reserved', () => {
    // All CJK: 3 bytes a UTF-16 unit, more than the 1.25 reserved per unit.
    const rows = Array.from({ length: 50 }, (_, i) => row(i, { snippet_src: '検索'.repeat(100 + i) }));
    const column = rowsToArrow(rows, pagesSchema()).getChild('snippet_src')!;
    expect(column.toArray()).toEqual(rows.map((r) => r.snippet_src));
  });
});
