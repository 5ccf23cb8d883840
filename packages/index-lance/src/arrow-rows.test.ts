import { makeArrowTable } from '@lancedb/lancedb';
import { Field, Schema, Utf8 } from 'apache-arrow';
import { rowsToArrow } from './arrow-rows.js';
import { type PageRow, pagesSchema } from './rows.js';

function row(i: number, overrides: Partial<PageRow> = {}): PageRow {
  return {
    id: `id-${i}`,
    lang: 'en',
    crawled_ms: 1_795_000_000_000 + i,
    seq: 7,
    bucket: i % 64,
    filetype: 'html',
    quality: 0.5,
    hit: JSON.stringify({ id: `id-${i}`, url: `https://example.com/${i}`, title: `Title ${i}`, site_name: null }),
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
      row(1, { t_title: 'Café 北京天气 🎉', hit: JSON.stringify({ snippet_src: '搜索引擎'.repeat(500) }) }),
      row(2, { t_text: '', meta: '' }),
    ];
    const schema = pagesSchema();
    expect(plain(rowsToArrow(rows, schema))).toEqual(plain(makeArrowTable(rows as never[], { schema }) as never));
  });

  it('keeps nulls apart from empty strings', () => {
    const schema = new Schema([new Field('name', new Utf8(), true)]);
    const table = rowsToArrow([{ name: null }, { name: '' }, { name: 'x' }], schema);
    expect(table.getChild('name')?.toArray()).toEqual([null, '', 'x']);
    expect(table.getChild('name')?.nullCount).toBe(1);
  });

  it('grows its buffer when the text takes more bytes than first reserved', () => {
    // All CJK: 3 bytes a UTF-16 unit, more than the 1.25 reserved per unit.
    const rows = Array.from({ length: 50 }, (_, i) => row(i, { hit: '検索'.repeat(100 + i) }));
    const column = rowsToArrow(rows, pagesSchema()).getChild('hit')!;
    expect(column.toArray()).toEqual(rows.map((r) => r.hit));
  });
});
