import { normalizeLang, UNKNOWN_LANG } from '@quarry/core';
import { franc } from 'franc-min';

/** ISO 639-3 codes franc-min returns → ISO 639-1; codes without a 639-1 twin map to nothing. */
const ISO3_TO_1: Readonly<Record<string, string>> = {
  arb: 'ar',
  azj: 'az',
  bel: 'be',
  ben: 'bn',
  bos: 'bs',
  bul: 'bg',
  ces: 'cs',
  ckb: 'ku',
  cmn: 'zh',
  deu: 'de',
  ell: 'el',
  eng: 'en',
  fra: 'fr',
  fuv: 'ff',
  guj: 'gu',
  hau: 'ha',
  heb: 'he',
  hin: 'hi',
  hrv: 'hr',
  hun: 'hu',
  hye: 'hy',
  ibo: 'ig',
  ind: 'id',
  ita: 'it',
  jav: 'jv',
  jpn: 'ja',
  kan: 'kn',
  kat: 'ka',
  kaz: 'kk',
  khm: 'km',
  kin: 'rw',
  kor: 'ko',
  lao: 'lo',
  lin: 'ln',
  mal: 'ml',
  mar: 'mr',
  mya: 'my',
  nld: 'nl',
  npi: 'ne',
  nya: 'ny',
  ori: 'or',
  pan: 'pa',
  pbu: 'ps',
  pes: 'fa',
  plt: 'mg',
  pol: 'pl',
  por: 'pt',
  qug: 'qu',
  ron: 'ro',
  run: 'rn',
  rus: 'ru',
  sin: 'si',
  som: 'so',
  spa: 'es',
  srp: 'sr',
  sun: 'su',
  swe: 'sv',
  swh: 'sw',
  tam: 'ta',
  tel: 'te',
  tgl: 'tl',
  tha: 'th',
  tur: 'tr',
  ukr: 'uk',
  urd: 'ur',
  uzn: 'uz',
  vie: 'vi',
  yor: 'yo',
  zlm: 'ms',
  zul: 'zu',
  zyb: 'za',
  amh: 'am',
};

/** Writing systems we can tell apart by code point alone. */
type Script = 'han' | 'kana' | 'hangul' | 'cyrillic' | 'arabic' | 'hebrew' | 'greek' | 'thai' | 'latin';

const SCRIPT_PATTERNS: ReadonlyArray<readonly [Script, RegExp]> = [
  ['han', /\p{Script=Han}/u],
  ['kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['hangul', /\p{Script=Hangul}/u],
  ['cyrillic', /\p{Script=Cyrillic}/u],
  ['arabic', /\p{Script=Arabic}/u],
  ['hebrew', /\p{Script=Hebrew}/u],
  ['greek', /\p{Script=Greek}/u],
  ['thai', /\p{Script=Thai}/u],
  ['latin', /\p{Script=Latin}/u],
];

/** Script of each non-ASCII character seen so far (a text uses few distinct characters). */
const scriptCache = new Map<number, Script | null>();
/** Bounds the cache; past it, characters are classified without being remembered. */
const MAX_CACHED_CHARS = 65_536;

function scriptOfChar(code: number, char: string): Script | null {
  const cached = scriptCache.get(code);
  if (cached !== undefined) return cached;
  let found: Script | null = null;
  for (const [script, pattern] of SCRIPT_PATTERNS) {
    if (pattern.test(char)) {
      found = script;
      break;
    }
  }
  if (scriptCache.size < MAX_CACHED_CHARS) scriptCache.set(code, found);
  return found;
}

/** The script each language is normally written in (only languages we can check are listed). */
const LANG_SCRIPT: Readonly<Record<string, Script>> = {
  zh: 'han',
  ja: 'kana',
  ko: 'hangul',
  ru: 'cyrillic',
  uk: 'cyrillic',
  bg: 'cyrillic',
  be: 'cyrillic',
  kk: 'cyrillic',
  mk: 'cyrillic',
  sr: 'cyrillic',
  ar: 'arabic',
  fa: 'arabic',
  ur: 'arabic',
  he: 'hebrew',
  el: 'greek',
  th: 'thai',
};

/** Languages written in Latin script (the franc-min set plus common European ones). */
const LATIN_LANGS: ReadonlySet<string> = new Set(
  (
    'af az bs ca cs cy da de en eo es et eu ff fi fr ga gl ha hr hu id ig is it jv ku lt lv mg ' +
    'ms mt nb nl nn no ny pl pt qu ro rn rw sk sl so sq su sv sw tl tr uz vi yo za zu'
  ).split(' '),
);

/** Characters of text sampled for detection: enough for trigram statistics, bounded cost. */
const SAMPLE_CHARS = 3_000;
/** Below this many letters, the text says too little to contradict or replace the markup. */
const MIN_LETTERS = 40;
/** Share of letters a script needs to count as the text's script. */
const DOMINANT_SHARE = 0.5;

/** What the text itself says about its language. */
export interface TextLanguage {
  /** ISO 639-1 code, or null when the text is too short or the language is not recognised. */
  lang: string | null;
  /** The script most letters belong to, or null for too little text. */
  script: Script | null;
}

/**
 * The script profile of a text: one pass over its characters (ASCII letters directly, others
 * classified once per distinct character), which decides most pages without franc.
 */
function profile(sample: string): TextLanguage {
  // Every script starts at 0 in SCRIPT_PATTERNS order, which also breaks ties below.
  const counts = new Map<Script, number>(SCRIPT_PATTERNS.map(([script]) => [script, 0]));
  let latinAscii = 0;
  let letters = 0;
  for (let i = 0; i < sample.length; i++) {
    const code = sample.codePointAt(i) as number;
    if (code < 0x80) {
      const lower = code | 0x20;
      if (lower >= 0x61 && lower <= 0x7a) latinAscii++;
      continue;
    }
    const wide = code > 0xffff;
    const script = scriptOfChar(code, wide ? sample.slice(i, i + 2) : (sample[i] as string));
    if (wide) i++;
    if (script === null) continue;
    counts.set(script, (counts.get(script) ?? 0) + 1);
    letters++;
  }
  counts.set('latin', (counts.get('latin') ?? 0) + latinAscii);
  letters += latinAscii;
  if (letters < MIN_LETTERS) return { lang: null, script: null };
  const han = counts.get('han') ?? 0;
  const kana = counts.get('kana') ?? 0;
  if ((han + kana) / letters >= DOMINANT_SHARE) {
    return kana >= (han + kana) / 10 ? { lang: 'ja', script: 'kana' } : { lang: 'zh', script: 'han' };
  }
  let script: Script | null = null;
  for (const [name, n] of counts) if (n / letters >= DOMINANT_SHARE) script = name;
  return { lang: script === 'hangul' ? 'ko' : null, script };
}

/**
 * Detects the language of a plain text. Han-dominant text is `zh`, or `ja` when kana make up at
 * least a tenth of the CJK characters (Japanese always mixes kana in; Chinese never does); Hangul
 * is `ko`; anything else goes to franc-min's trigram model (first 3,000 characters).
 */
export function detectTextLanguage(text: string): TextLanguage {
  const sample = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
  const found = profile(sample);
  if (found.lang !== null || found.script === null) return found;
  return { lang: ISO3_TO_1[franc(sample, { minLength: MIN_LETTERS })] ?? null, script: found.script };
}

/** Language hints from the markup and the HTTP response, most authoritative first. */
export interface LanguageHints {
  htmlLang?: string | null;
  metaContentLanguage?: string | null;
  headerContentLanguage?: string | null;
  ogLocale?: string | null;
}

/**
 * Decides a page's language (primary subtag, lower case, `und` when unknown).
 *
 * The markup (html lang, meta content-language, the Content-Language header, og:locale, in that
 * order) is trusted unless the text clearly contradicts it: a contradiction is a script mismatch
 * (markup says `en` but the text is mostly Han → `zh`; markup says `zh` but the text is Latin →
 * what franc detects). Between languages of the same script (en vs de) the markup wins, because
 * trigram models confuse neighbours (es/pt, id/ms) more often than sites mislabel themselves.
 * Without usable markup, the language detected from the text is used.
 */
export function decideLanguage(hints: LanguageHints, text: string): string {
  const markup =
    firstLang(hints.htmlLang) ??
    firstLang(hints.metaContentLanguage) ??
    firstLang(hints.headerContentLanguage) ??
    firstLang(hints.ogLocale);
  if (markup === null) return detectTextLanguage(text).lang ?? UNKNOWN_LANG;
  const expected = LANG_SCRIPT[markup] ?? (LATIN_LANGS.has(markup) ? 'latin' : null);
  // A language whose script we do not track cannot be contradicted.
  if (expected === null) return markup;
  const seen = profile(text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text);
  if (seen.script === null || seen.script === expected) return markup;
  if (expected === 'kana' && seen.script === 'han') return markup;
  return detectTextLanguage(text).lang ?? markup;
}
/**
 * `en-US, fr` → `en`; three-letter codes become their two-letter twin (`normalizeLang`: `eng`,
 * `ger`; and the languages the detector merges, `yue` → `zh`); null for empty, `und` or garbage
 * (`lang="utf-8"` would otherwise become `utf`).
 */
function firstLang(value: string | null | undefined): string | null {
  if (!value) return null;
  const lang = normalizeLang(value.split(',')[0]);
  if (lang === null || lang === UNKNOWN_LANG) return null;
  if (lang.length === 2) return lang;
  return ISO3_TO_1[lang] ?? null;
}
