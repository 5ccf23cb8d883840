import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import iconv from 'iconv-lite';
import { isValidUtf8, prescanMetaCharset, resolveEncodingLabel } from './charset.js';
import { decodeHtml } from './decode.js';

const PAGES = new URL('../../../../shared/testdata/chinese-pages', import.meta.url).pathname;

/** Only the Han characters outside tags: markup, entities, spacing and punctuation do not matter here. */
const han = (text: string): string => text.replace(/<[^>]*>/g, '').replace(/[^\p{Script=Han}]+/gu, '');

/** Share of the ground-truth lines (their Han characters, 8 or more) found in the decoded text. */
function groundTruthCoverage(text: string, truth: string): number {
  const haystack = han(text);
  const lines = truth
    .split('\n')
    .map(han)
    .filter((line) => line.length >= 8);
  if (lines.length === 0) return 1;
  return lines.filter((line) => haystack.includes(line)).length / lines.length;
}

describe('decodeHtml on synthetic input', () => {
  it('uses a BOM over any declaration', () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<meta charset="gbk">中文', 'utf8')]);
    expect(decodeHtml(body, { contentType: 'text/html; charset=iso-8859-1' })).toEqual({
      text: '<meta charset="gbk">中文',
      charset: 'utf-8',
      source: 'bom',
    });
  });

  it('prefers the HTTP charset over meta and maps gb2312 to gbk', () => {
    const body = iconv.encode('<meta charset="windows-1252"><p>汉字测试</p>', 'gbk');
    const decoded = decodeHtml(body, { contentType: 'text/html; charset="GB2312"' });
    expect(decoded.charset).toBe('gbk');
    expect(decoded.source).toBe('http');
    expect(decoded.text).toContain('汉字测试');
  });

  it('finds meta charset and http-equiv declarations with the HTML prescan', () => {
    const body = iconv.encode(
      '<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">日本語',
      'shift_jis',
    );
    expect(decodeHtml(body)).toEqual(expect.objectContaining({ charset: 'shift_jis', source: 'meta' }));
    expect(decodeHtml(body).text).toContain('日本語');
  });

  it('ignores charset-looking text in comments, other tags and content-only metas', () => {
    expect(prescanMetaCharset(Buffer.from('<!-- <meta charset="koi8-r"> --><meta charset=utf-8>'))).toBe('utf-8');
    expect(prescanMetaCharset(Buffer.from('<div title="<meta charset=koi8-r>"></div>'))).toBeNull();
    expect(prescanMetaCharset(Buffer.from('<meta content="text/html; charset=koi8-r">'))).toBeNull();
    expect(prescanMetaCharset(Buffer.from('<meta charset="utf-16">'))).toBe('utf-8');
    expect(prescanMetaCharset(Buffer.from('<meta charset="no-such-thing">'))).toBeNull();
  });

  it('corrects a declared UTF-8 that is really GBK, and a declared GBK that is really UTF-8', () => {
    const sentence = '北京时间昨天晚上，国家统计局发布了最新的经济数据，显示工业生产继续保持平稳增长。';
    const gbk = iconv.encode(`<meta charset="utf-8"><p>${sentence}</p>`, 'gbk');
    const fixed = decodeHtml(gbk, { contentType: 'text/html; charset=utf-8' });
    expect(fixed.source).toBe('sniff');
    expect(fixed.text).toContain(sentence);
    const utf8 = Buffer.from(`<meta charset="gb2312"><p>${sentence}</p>`, 'utf8');
    expect(decodeHtml(utf8)).toEqual(expect.objectContaining({ charset: 'utf-8', source: 'sniff' }));
  });

  it('keeps the punctuation of windows-1252 pages, under any label that means windows-1252', () => {
    const sentence = 'Le café de la forêt est très élégant — naïve €, “quotes” ‘x’ ™ …';
    const page = (declaration: string): Buffer =>
      iconv.encode(
        `<!doctype html><html><head>${declaration}<title>Café</title></head><p>${sentence}</p>`,
        'windows-1252',
      );
    const meta = decodeHtml(page('<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">'));
    expect(meta).toEqual(expect.objectContaining({ charset: 'windows-1252', source: 'meta' }));
    expect(meta.text).toContain(sentence);
    for (const label of ['iso-8859-1', 'latin1', 'us-ascii']) {
      const decoded = decodeHtml(page(''), { contentType: `text/html; charset=${label}` });
      expect([label, decoded.charset, decoded.text.includes(sentence)]).toEqual([label, 'windows-1252', true]);
    }
  });

  it('keeps a UTF-8 page with one stray byte in UTF-8, however it is declared', () => {
    const prose = 'Größe, Straße, déjà vu, naïve café, 東京. '.repeat(30);
    const page = (head: string): Buffer =>
      Buffer.concat([
        Buffer.from(`<html><head>${head}<title>Über uns</title></head><body><p>Copyright `),
        Buffer.from([0xa9]), // a latin1 © pasted into a UTF-8 template
        Buffer.from(` 2020</p><p>${prose}</p></body></html>`),
      ]);
    const http = decodeHtml(page(''), { contentType: 'text/html; charset=utf-8' });
    expect(http).toEqual(expect.objectContaining({ charset: 'utf-8', source: 'http' }));
    expect(http.text).toContain(`Copyright \uFFFD 2020</p><p>${prose}`);
    const meta = decodeHtml(page('<meta charset="utf-8">'));
    expect(meta).toEqual(expect.objectContaining({ charset: 'utf-8', source: 'meta' }));
    const undeclared = decodeHtml(page(''));
    expect(undeclared).toEqual(expect.objectContaining({ charset: 'utf-8', source: 'sniff' }));
    expect(undeclared.text).toContain(prose);
    // A stale legacy declaration on such a page is corrected as it is on a page of valid UTF-8.
    const stale = decodeHtml(page('<meta charset="iso-8859-1">'));
    expect(stale).toEqual(expect.objectContaining({ charset: 'utf-8', source: 'sniff' }));
    expect(stale.text).toContain(prose);
  });

  it('sniffs undeclared bytes and defaults to UTF-8 for ASCII', () => {
    expect(decodeHtml(Buffer.from('<p>plain ascii</p>'))).toEqual({
      text: '<p>plain ascii</p>',
      charset: 'utf-8',
      source: 'default',
    });
    const utf8 = decodeHtml(Buffer.from('<p>café crème</p>', 'utf8'));
    expect(utf8).toEqual(expect.objectContaining({ charset: 'utf-8', source: 'sniff', text: '<p>café crème</p>' }));
  });

  it('reads a short undeclared page in its likeliest encoding when it is no UTF-8, however unsure the guess', () => {
    const pages: Array<[string, string]> = [
      ['Метро Москвы: новая станция открылась в районе Черёмушках. Пассажиров стало больше.', 'windows-1251'],
      ['Привет мир, как дела у вас сегодня? Погода хорошая.', 'koi8-r'],
      ['Ελληνικά κείμενα για δοκιμή σήμερα.', 'iso-8859-7'],
    ];
    for (const [prose, encoding] of pages) {
      const decoded = decodeHtml(iconv.encode(`<html><body><p>${prose}</p></body></html>`, encoding));
      expect(decoded.text).toContain(prose);
      expect(decoded.source).toBe('sniff');
    }
  });

  it('sniffs undeclared Thai in windows-874, which the statistical detector does not know', () => {
    const thai =
      'กรุงเทพมหานครเป็นเมืองหลวงและนครที่มีประชากรมากที่สุดของประเทศไทย เป็นศูนย์กลางการปกครอง การศึกษา ' +
      'การคมนาคมขนส่ง การเงินการธนาคาร การพาณิชย์ การสื่อสาร และความเจริญของประเทศ ตั้งอยู่บนสามเหลี่ยมปากแม่น้ำเจ้าพระยา';
    const page = `<html><head><title>หน้าแรก</title></head><body><p>${thai}</p></body></html>`;
    expect(decodeHtml(iconv.encode(page, 'windows-874'))).toEqual({
      text: page,
      charset: 'windows-874',
      source: 'sniff',
    });
    // Too little Thai to judge is left to the detector.
    expect(decodeHtml(iconv.encode('<p>ประเทศไทย</p>', 'windows-874')).charset).not.toBe('windows-874');
  });

  it('does not take Korean, Chinese or Japanese double-byte text for Thai', () => {
    const korean =
      '서울특별시는 대한민국의 수도이자 최대 도시이다. 한강을 사이에 두고 강북과 강남으로 나뉘며, 조선 시대부터 수도의 역할을 해 왔다. ' +
      '정치, 경제, 사회, 문화의 중심지로서 많은 사람들이 살고 있다.';
    expect(decodeHtml(iconv.encode(`<p>${korean}</p>`, 'euc-kr')).charset).toBe('euc-kr');
    // Korean lead bytes are all TIS-620 consonants and its trail bytes may be Thai marks: random
    // syllables (a fixed pseudo-random sequence), 20 to 400 of them, spaced as words are.
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const taken: number[] = [];
    for (const encoding of ['euc-kr', 'gbk', 'big5', 'shift_jis']) {
      for (let i = 0; i < 300; i++) {
        const bytes: number[] = [];
        const length = 20 + next(380);
        for (let j = 0; j < length; j++) {
          if (next(8) === 0) bytes.push(0x20);
          else if (encoding === 'shift_jis') bytes.push(0x88 + next(0x18), 0x40 + next(0x3f));
          else if (encoding === 'big5') bytes.push(0xa4 + next(0x23), 0xa1 + next(0x5e));
          else bytes.push(0xb0 + next(0x18), 0xa1 + next(0x5e));
        }
        const body = Buffer.concat([Buffer.from('<p>'), Buffer.from(bytes), Buffer.from('</p>')]);
        if (decodeHtml(body).charset === 'windows-874') taken.push(i);
      }
    }
    expect(taken).toEqual([]);
  });

  it('still recognises UTF-8 cut mid-character at a byte limit, and rejects a broken middle', () => {
    const whole = Buffer.from('<p>café 北京 ok 😀</p>', 'utf8');
    for (const cut of [1, 2, 3]) {
      const end = whole.indexOf(Buffer.from('😀', 'utf8')) + 4 - cut;
      expect(decodeHtml(whole.subarray(0, end))).toEqual(
        expect.objectContaining({ charset: 'utf-8', source: 'sniff' }),
      );
    }
    expect(isValidUtf8(whole.subarray(0, whole.length - 1))).toBe(true);
    const broken = Buffer.concat([Buffer.from('<p>café', 'utf8'), Buffer.from([0xe5, 0x41]), Buffer.from(' ok</p>')]);
    expect(isValidUtf8(broken)).toBe(false);
    expect(isValidUtf8(Buffer.from([0x61, 0x80]))).toBe(false);
  });

  it('resolves labels as WHATWG does', () => {
    expect(resolveEncodingLabel('GB2312')).toBe('gbk');
    expect(resolveEncodingLabel('latin1')).toBe('windows-1252');
    expect(resolveEncodingLabel(' UTF8 ')).toBe('utf-8');
    expect(resolveEncodingLabel('x-user-defined')).toBe('windows-1252');
    expect(resolveEncodingLabel('bogus')).toBeNull();
  });
});

const haveChinese = existsSync(join(PAGES, 'original'));
if (!haveChinese) console.warn(`skipping Chinese page decoding: ${PAGES} is absent`);
const d = haveChinese ? describe : describe.skip;

d('decodeHtml on real GB2312/GBK/UTF-8 Chinese pages', () => {
  const files = haveChinese ? readdirSync(join(PAGES, 'original')).filter((f) => f.endsWith('.html')) : [];

  it.each(files)('%s decodes to text containing its ground truth', (file) => {
    const body = readFileSync(join(PAGES, 'original', file));
    const truth = readFileSync(join(PAGES, 'cleaned', file.replace(/\.html$/, '.txt')), 'utf8');
    const { text } = decodeHtml(body);
    expect(text).not.toContain('\uFFFD'.repeat(3));
    expect(groundTruthCoverage(text, truth)).toBeGreaterThanOrEqual(0.8);
  });

  it('decodes by sniffing alone when every declaration is removed', () => {
    for (const file of files) {
      // Same byte length, no declaration left for the prescan to find.
      const body = Buffer.from(
        readFileSync(join(PAGES, 'original', file))
          .toString('latin1')
          .replace(/charset/gi, 'xharset'),
        'latin1',
      );
      const truth = readFileSync(join(PAGES, 'cleaned', file.replace(/\.html$/, '.txt')), 'utf8');
      const decoded = decodeHtml(body);
      expect([file, decoded.source]).toEqual([file, expect.stringMatching(/^(sniff|default)$/)]);
      expect([file, groundTruthCoverage(decoded.text, truth) >= 0.8]).toEqual([file, true]);
    }
  });

  it('decodes even when the server lies that every page is UTF-8', () => {
    const coverage = files.map((file) => {
      const body = readFileSync(join(PAGES, 'original', file));
      const truth = readFileSync(join(PAGES, 'cleaned', file.replace(/\.html$/, '.txt')), 'utf8');
      return groundTruthCoverage(decodeHtml(body, { contentType: 'text/html; charset=utf-8' }).text, truth);
    });
    const good = coverage.filter((c) => c >= 0.8).length;
    console.log(`Chinese pages decoded with a false UTF-8 header: ${good}/${files.length}`);
    expect(good).toBe(files.length);
  });
});
