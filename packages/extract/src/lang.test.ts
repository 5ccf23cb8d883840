import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { extractHtml } from './extract-html.js';
import { decideLanguage, detectTextLanguage } from './lang.js';

const EN = 'The quick brown fox jumps over the lazy dog while the children watch from the garden. '.repeat(3);
const DE = 'Der schnelle braune Fuchs springt über den faulen Hund, während die Kinder im Garten zuschauen. '.repeat(3);
const ZH = '今天天气很好，我们一起去公园散步，看到了很多美丽的花朵和高大的树木。'.repeat(3);
const JA = '今日はとても良い天気なので、私たちは公園に散歩に行きました。きれいな花が咲いていました。'.repeat(2);

describe('detectTextLanguage', () => {
  it('detects Han text as zh and kana-bearing text as ja', () => {
    expect(detectTextLanguage(ZH).lang).toBe('zh');
    expect(detectTextLanguage(JA).lang).toBe('ja');
  });

  it('maps franc ISO 639-3 codes to ISO 639-1', () => {
    expect(detectTextLanguage(EN).lang).toBe('en');
    expect(detectTextLanguage(DE).lang).toBe('de');
  });

  it('counts characters outside the BMP and ignores digits, punctuation and emoji', () => {
    // U+20000 and up are Han (CJK extension B), written as surrogate pairs.
    expect(detectTextLanguage(`${'𠀀𠀁𠀂'.repeat(20)} 123, 456! 😀😀`).lang).toBe('zh');
    expect(detectTextLanguage(`${'Привет, как дела? '.repeat(5)}12345 😀`).script).toBe('cyrillic');
    expect(detectTextLanguage('12345 67890 !!! 😀😀😀 '.repeat(20))).toEqual({ lang: null, script: null });
  });

  it("tells Indonesian from Malay by each one's own word forms, which trigrams cannot", () => {
    // franc-min alone calls the first `ms` and the second `id`.
    const indonesian =
      'Jakarta - Presiden meresmikan jalan tol baru pada hari Senin karena proyek ini dinilai penting. ' +
      'Menurut pejabat, pemerintah berharap kemacetan berkurang.';
    const malay =
      'Kerajaan Malaysia mengumumkan dasar baharu mengenai pendidikan kerana ramai pelajar tidak dapat ' +
      'hadir ke sekolah. Menurut kenyataan, langkah itu bermula bulan hadapan.';
    expect(detectTextLanguage(indonesian).lang).toBe('id');
    expect(detectTextLanguage(malay).lang).toBe('ms');
  });

  it('says nothing about too little text', () => {
    expect(detectTextLanguage('Hi there')).toEqual({ lang: null, script: null });
  });
});

describe('decideLanguage', () => {
  it('uses <html lang> first, normalized to the primary subtag', () => {
    expect(decideLanguage({ htmlLang: 'en-US', metaContentLanguage: 'de' }, EN)).toBe('en');
  });

  it('falls back to meta content-language, the header and og:locale in that order', () => {
    expect(decideLanguage({ metaContentLanguage: 'de-AT, en' }, DE)).toBe('de');
    expect(decideLanguage({ headerContentLanguage: 'fr' }, '')).toBe('fr');
    expect(decideLanguage({ ogLocale: 'pt_BR' }, '')).toBe('pt');
  });

  it('trusts the text when its script contradicts the markup', () => {
    expect(decideLanguage({ htmlLang: 'en' }, ZH)).toBe('zh');
    expect(decideLanguage({ htmlLang: 'zh-CN' }, EN)).toBe('en');
  });

  it('keeps the markup for a same-script disagreement', () => {
    expect(decideLanguage({ htmlLang: 'en' }, DE)).toBe('en');
  });

  it('detects from the text without usable markup, und when nothing is known', () => {
    expect(decideLanguage({ htmlLang: 'utf-8' }, DE)).toBe('de');
    expect(decideLanguage({ htmlLang: 'und' }, ZH)).toBe('zh');
    expect(decideLanguage({}, 'ok')).toBe('und');
    expect(decideLanguage({ htmlLang: 'zho' }, '')).toBe('zh');
  });
});

const TESTDATA = join(import.meta.dirname, '../../../../shared/testdata');
const pagesPresent =
  existsSync(join(TESTDATA, 'readability-pages')) &&
  existsSync(join(TESTDATA, 'wcxb-dev')) &&
  existsSync(join(TESTDATA, 'llms-txt'));
if (!pagesPresent) console.warn(`language tests on real pages skipped: ${TESTDATA} lacks its page sets`);
const withPages = pagesPresent ? describe : describe.skip;

/** A Readability test page's source, its `<html lang>` made `en` (a site template's default). */
function markedEnglish(name: string): string {
  const html = readFileSync(join(TESTDATA, 'readability-pages', name, 'source.html'), 'utf8');
  const marked = html.replace(/(<html\b[^>]*?\s)lang="[^"]*"/, '$1lang="en"').replace(/\sxml:lang="[^"]*"/, '');
  expect(marked).not.toBe(html);
  return marked;
}

function wcxbPage(id: string): { html: string; url: string } {
  const dir = join(TESTDATA, 'wcxb-dev/dev');
  const { url } = JSON.parse(readFileSync(join(dir, 'ground-truth', `${id}.json`), 'utf8')) as { url: string };
  return { html: gunzipSync(readFileSync(join(dir, 'html', `${id}.html.gz`))).toString('utf8'), url };
}

withPages('decideLanguage on real pages whose markup says another language', () => {
  it.each([
    ['heise', 'de'],
    ['lemonde-1', 'fr'],
    ['nytimes-5', 'es'],
    ['aktualne', 'cs'],
  ])('%s marked lang="en" is %s, as its function words say', (name, lang) => {
    expect(extractHtml(markedEnglish(name), { url: 'http://fakehost/test/page.html' }).lang).toBe(lang);
  });

  it('takes Indonesian for a translated page left lang="en" by its template', () => {
    // wcxb-dev 4403: id.legacy.reactjs.org, the React docs in Indonesian, `<html lang="en">`.
    const { html, url } = wcxbPage('4403');
    expect(extractHtml(html, { url }).lang).toBe('id');
  });

  it('reads the short lines of a real Indonesian llms.txt as Indonesian, not Malay', () => {
    // Pointhub's ERP documentation: franc-min alone calls 23 of its 110 descriptions Malay.
    const file = join(TESTDATA, 'llms-txt/files/036_pointhub.gitbook.io_pointhub-documentation_llms.txt');
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => line.replace(/\[[^\]]*\]\([^)]*\):?/g, '').replace(/^[-#\s]+/, ''))
      .filter((line) => (line.match(/\p{L}/gu) ?? []).length >= 40);
    const malay = lines.filter((line) => detectTextLanguage(line).lang === 'ms');
    expect(lines.length).toBeGreaterThan(100);
    expect(malay.length).toBeLessThanOrEqual(12);
  });

  // 0648 was one too until its glued words (`HOKAClifton`) were parted: its text now reads as English.
  it.each(['0638', '2925', '4531'])(
    'keeps en for English product lists and tables (wcxb-dev %s) that trigrams read as another language',
    (id) => {
      const { html, url } = wcxbPage(id);
      const page = extractHtml(html, { url });
      expect(detectTextLanguage(page.body_text).lang).not.toBe('en');
      expect(page.lang).toBe('en');
    },
  );
});
