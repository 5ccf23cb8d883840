import { describe, expect, it } from '@jest/globals';
import iconv from 'iconv-lite';
import { createExtractPool } from './extract-pool.js';

const URL = 'https://news.example.cn/2024/05/17/story.html';
const SENTENCE = '北京时间昨天晚上，国家统计局发布了最新的经济数据，显示工业生产继续保持平稳增长。';
const html = `<html><head><meta charset="gb2312"><title>经济数据</title></head><body><article>${`<p>${SENTENCE.repeat(4)}</p>`.repeat(5)}</article></body></html>`;

describe('ExtractPool', () => {
  it('extracts an undecoded body the same as its decoded HTML', async () => {
    const pool = createExtractPool();
    try {
      const fromHtml = await pool.extract({ html, url: URL, contentLanguage: null });
      const gbk = iconv.encode(html, 'gbk');
      for (const contentType of ['text/html; charset=gbk', 'text/html', undefined]) {
        const fromBody = await pool.extractBody({ body: gbk, contentType, url: URL, contentLanguage: null });
        expect(fromBody).toEqual(fromHtml);
      }
      expect(fromHtml.body_text).toContain(SENTENCE);
      expect(fromHtml.lang).toBe('zh');
    } finally {
      await pool.close();
    }
  });
});
