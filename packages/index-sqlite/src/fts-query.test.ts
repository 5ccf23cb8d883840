import { describe, expect, it } from '@jest/globals';
import type { IndexQuery } from '@quarry/core';
import { parseQuery } from '@quarry/query';
import { tokenize } from '@quarry/text';
import Database from 'better-sqlite3';
import { planFtsQuery } from './fts-query.js';
import { metaText, toFtsText } from './fts-text.js';

const plan = (q: string, extra: Partial<IndexQuery> = {}) =>
  planFtsQuery({ query: parseQuery(q), limit: 10, offset: 0, ...extra }, Date.parse('2026-06-01T00:00:00Z'));

/** Tokens FTS5's ascii tokenizer sees, read back through an fts5vocab table. */
function ftsTokens(text: string): string[] {
  const db = new Database(':memory:');
  db.exec(
    "CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'ascii'); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');",
  );
  db.prepare('INSERT INTO t (x) VALUES (?)').run(text);
  const tokens = db.prepare('SELECT term FROM v ORDER BY offset').pluck().all() as string[];
  db.close();
  return tokens;
}

describe('toFtsText', () => {
  it('gives FTS5 exactly the tokens of @quarry/text (CJK as pairs), for ASCII, accented, CJK and mixed text', () => {
    for (const text of [
      'Plain ASCII, with punctuation: re:Invent e-mail 2024!',
      'Café Müller — “quoted” naïve façade',
      '我们使用搜索引擎查找信息，iPhone手机 2024年',
      'Ｆｕｌｌ　ｗｉｄｔｈ and ﬁ ligature 東京タワーに行きました',
      '🎉 emoji-only 👍🏽 words',
    ]) {
      expect(ftsTokens(toFtsText(text))).toEqual(tokenize(text, { cjk: 'bigrams' }));
    }
  });
});

describe('planFtsQuery', () => {
  it('quotes every token so user text cannot inject FTS5 syntax', () => {
    const { match } = plan('NEAR(a b) "x" OR y* ^z col:w');
    expect(match).not.toBeNull();
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE pages_fts USING fts5(title, body, site, meta, tokenize = 'ascii')");
    expect(() => db.prepare('SELECT * FROM pages_fts WHERE pages_fts MATCH ?').all(match)).not.toThrow();
    db.close();
    expect(match).not.toMatch(/NEAR\(|\*|\^/);
  });

  it('turns a multi-token word into a phrase, a CJK word into a phrase of its character pairs', () => {
    expect(plan('re:invent').match).toBe('"re" + "invent"');
    expect(plan('"搜索引擎"').match).toBe('"搜索" + "索引" + "引擎"');
    // Unquoted, the run is segmented into words (Intl.Segmenter), each a phrase of its pairs, ANDed.
    expect(plan('搜索引擎').match).toBe('("搜索" AND "引擎")');
    expect(plan('北京天气预报').match).toBe('("北京" AND "天气" AND "预报")');
    expect(plan('猫').match).toBe('"猫" *');
  });

  it('drops stop words from an AND while other words remain, but keeps a lone stop word', () => {
    const dropped = plan('the history of rome');
    expect(dropped.match).toBe('("history" AND "rome")');
    expect(dropped.positiveLeaves.map((leaf) => leaf.expr)).toEqual(['"history"', '"rome"']);
    expect(dropped.snippetTerms).toEqual(['history', 'rome']);
    expect(plan('the').match).toBe('"the"');
  });

  it('drops clauses without tokens and marks a query with nothing positive and no filter as empty', () => {
    expect(plan('🎉').empty).toBe(true);
    expect(plan('🎉 -cats').empty).toBe(true);
    expect(plan('🎉 -cats', { lang: 'en' }).empty).toBe(false);
  });

  it('restricts intitle to the marked title tokens, and ranks every leaf by its title form too', () => {
    expect(plan('intitle:volcano').match).toBe('"¶volcano"');
    expect(plan('"lava flow" intitle:volcano').positiveLeaves).toEqual([
      { expr: '"lava" + "flow"', title: '"¶lava" + "¶flow"' },
      { expr: '"¶volcano"', title: '"¶volcano"' },
    ]);
  });

  it('narrows a short crawl-time range with month tokens and checks the exact time outside FTS5', () => {
    const short = plan('cats', { crawledAfter: '2026-05-20T00:00:00Z' });
    expect(short.match).toContain('"§m202605"');
    expect(short.crawledAfterMs).toBe(Date.parse('2026-05-20T00:00:00Z'));
    expect(plan('cats', { crawledAfter: '2025-01-01T00:00:00Z' }).match).not.toContain('§m');
  });
});

describe('plans on a real FTS5 table', () => {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE pages_fts USING fts5(title, body, site, meta, tokenize = 'ascii')");
  const insert = db.prepare('INSERT INTO pages_fts (rowid, title, body, site, meta) VALUES (?, ?, ?, ?, ?)');
  const add = (rowid: number, title: string, body: string, lang = 'en'): void => {
    const ftsTitle = toFtsText(title);
    const meta = metaText({ ftsTitle, lang, filetype: 'html', domain: 'www.example.com', crawledMs: 0 });
    insert.run(rowid, ftsTitle, toFtsText(body), '', meta);
  };
  add(1, 'Volcano report', 'Lava reached the coast. all zall');
  add(2, 'Island news', 'The volcano slept.');
  add(3, '北京天气', '明天北京天气晴朗，适合出行。猫', 'zh');
  add(4, '记者会', '记者们在现场。');
  const rowids = (q: string, extra: Partial<IndexQuery> = {}): number[] => {
    const { match } = plan(q, extra);
    return db
      .prepare('SELECT rowid FROM pages_fts WHERE pages_fts MATCH ? ORDER BY rowid')
      .pluck()
      .all(match) as number[];
  };

  it('finds words in any text column and intitle only in titles', () => {
    expect(rowids('volcano')).toEqual([1, 2]);
    expect(rowids('intitle:volcano')).toEqual([1]);
    expect(rowids('intitle:"volcano report"')).toEqual([1]);
    expect(rowids('intitle:"report volcano"')).toEqual([]);
  });

  it('never lets user text reach the filter tokens', () => {
    expect(rowids('all')).toEqual([1]);
    expect(rowids('"§all"')).toEqual([1]);
    expect(rowids('cats', { lang: 'zh' })).toEqual([]);
    expect(rowids('猫', { lang: 'zh' })).toEqual([3]);
  });

  it('finds any CJK character sequence, inside longer words and at the end of a run', () => {
    expect(rowids('北京天气')).toEqual([3]);
    expect(rowids('京天')).toEqual([3]);
    expect(rowids('天气晴朗')).toEqual([3]);
    expect(rowids('记者')).toEqual([4]);
    expect(rowids('者')).toEqual([4]);
    expect(rowids('猫')).toEqual([3]);
    expect(rowids('天晴')).toEqual([]);
    expect(rowids('intitle:记者')).toEqual([4]);
  });
});
