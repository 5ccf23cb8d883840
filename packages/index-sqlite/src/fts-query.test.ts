import { describe, expect, it } from '@jest/globals';
import type { IndexQuery } from '@quarry/core';
import { parseQuery } from '@quarry/query';
import { tokenize } from '@quarry/text';
import Database from 'better-sqlite3';
import { planFtsQuery } from './fts-query.js';
import { toFtsText } from './fts-text.js';

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
  it('gives FTS5 exactly the tokens of @quarry/text, for ASCII, accented, CJK and mixed text', () => {
    for (const text of [
      'Plain ASCII, with punctuation: re:Invent e-mail 2024!',
      'Café Müller — “quoted” naïve façade',
      '我们使用搜索引擎查找信息，iPhone手机 2024年',
      'Ｆｕｌｌ　ｗｉｄｔｈ and ﬁ ligature 東京タワーに行きました',
      '🎉 emoji-only 👍🏽 words',
    ]) {
      expect(ftsTokens(toFtsText(text))).toEqual(tokenize(text));
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

  it('turns a multi-token word into a phrase and a CJK word into an AND of its words', () => {
    expect(plan('re:invent').match).toBe('{title body site} : "re" + "invent"');
    expect(plan('搜索引擎').match).toBe('{title body site} : ("搜索" AND "引擎")');
  });

  it('drops stop words from an AND while other words remain, but keeps a lone stop word', () => {
    expect(plan('the history of rome').match).toBe('({title body site} : "history" AND {title body site} : "rome")');
    expect(plan('the').match).toBe('{title body site} : "the"');
  });

  it('drops clauses without tokens and marks a query with nothing positive and no filter as empty', () => {
    expect(plan('🎉').empty).toBe(true);
    expect(plan('🎉 -cats').empty).toBe(true);
    expect(plan('🎉 -cats', { lang: 'en' }).empty).toBe(false);
  });

  it('restricts intitle to the title column', () => {
    expect(plan('intitle:volcano').match).toBe('{title} : "volcano"');
  });

  it('narrows a short crawl-time range with month tokens and checks the exact time outside FTS5', () => {
    const short = plan('cats', { crawledAfter: '2026-05-20T00:00:00Z' });
    expect(short.match).toContain('"zm202605"');
    expect(short.crawledAfterMs).toBe(Date.parse('2026-05-20T00:00:00Z'));
    expect(plan('cats', { crawledAfter: '2025-01-01T00:00:00Z' }).match).not.toContain('zm');
  });
});
