import { normalizeLang, UNKNOWN_LANG } from '@quarry/core';
import { franc } from 'franc-min';
import {
  afr,
  cat,
  ces,
  dan,
  deu,
  eng,
  est,
  eus,
  fin,
  fra,
  gle,
  glg,
  hau,
  hrv,
  hun,
  ind,
  ita,
  lav,
  lit,
  msa,
  nld,
  nob,
  pol,
  por,
  ron,
  slk,
  slv,
  som,
  spa,
  swa,
  swe,
  tgl,
  tur,
  vie,
  yor,
  zul,
} from 'stopword';

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

/**
 * The `stopword` package's list of each Latin-script language it has one for: the function words
 * that make up a large share of any prose in that language (English prose: 30–50%).
 */
const FUNCTION_WORD_LISTS: Readonly<Record<string, readonly string[]>> = {
  af: afr,
  ca: cat,
  cs: ces,
  da: dan,
  de: deu,
  en: eng,
  es: spa,
  et: est,
  eu: eus,
  fi: fin,
  fr: fra,
  ga: gle,
  gl: glg,
  ha: hau,
  hr: hrv,
  hu: hun,
  id: ind,
  it: ita,
  lt: lit,
  lv: lav,
  ms: msa,
  nb: nob,
  nl: nld,
  no: nob,
  pl: pol,
  pt: por,
  ro: ron,
  sk: slk,
  sl: slv,
  so: som,
  sv: swe,
  sw: swa,
  tl: tgl,
  tr: tur,
  vi: vie,
  yo: yor,
  zu: zul,
};
const functionWordSets = new Map<string, ReadonlySet<string>>();
/** Below this many words, a text says too little to overrule the language its page declares. */
const MIN_OVERRULING_WORDS = 100;
/** A declared language is in doubt when at most this share of the text's words are its function words. */
const MAX_DOUBTED_SHARE = 0.08;
/** ...and the language detected instead is taken when at least this share are its own. */
const MIN_OVERRULING_SHARE = 0.25;

/** The share of `words` that are function words of `lang`; null for a language without a list. */
function functionWordShare(lang: string, words: readonly string[]): number | null {
  const list = FUNCTION_WORD_LISTS[lang];
  if (list === undefined || words.length === 0) return null;
  let set = functionWordSets.get(lang);
  if (set === undefined) {
    set = new Set(list.map((w) => w.toLowerCase()));
    functionWordSets.set(lang, set);
  }
  let n = 0;
  for (const w of words) if (set.has(w)) n++;
  return n / words.length;
}

/**
 * The language of a page whose markup declares a Latin-script language its text is also written
 * in: the markup, unless the text is long, hardly uses the declared language's function words and
 * uses those of the language franc-min detects a great deal (an Indonesian page left `lang="en"` by
 * its site's template). Trigram detection alone is no grounds: it reads English product lists and
 * tables as French or Swedish, whose function words they do not use.
 */
function latinLanguage(markup: string, sample: string): string {
  const words = lowerWords(sample);
  if (words.length < MIN_OVERRULING_WORDS) return markup;
  const own = functionWordShare(markup, words);
  if (own === null || own > MAX_DOUBTED_SHARE) return markup;
  const detected = francLanguage(sample, words);
  if (detected === undefined || detected === markup) return markup;
  return (functionWordShare(detected, words) ?? 0) >= MIN_OVERRULING_SHARE ? detected : markup;
}

/**
 * Words whose spelling or choice differs between Indonesian and Malay (Malaysia's standard), the
 * two being one language to a trigram model: franc-min calls either text `id` or `ms` almost at
 * random (an Indonesian news lead `ms`, a Malaysian one `id`). Each list holds only the one
 * variety's form of a pair (`karena` / `kerana`, `bahwa` / `bahawa`, `uang` / `wang`).
 */
const INDONESIAN_FORMS: ReadonlySet<string> = new Set(
  (
    'bahwa karena yaitu uang bisa mau pemerintah berbagai internasional gratis telepon kantor ' +
    'aktivitas universitas kualitas sepeda provinsi kabupaten fitur kode akun informasi layanan ' +
    'unduh nomor perusahaan pengaturan'
  ).split(' '),
);
const MALAY_FORMS: ReadonlySet<string> = new Set(
  (
    'bahawa kerana iaitu wang mahu selepas kerajaan pelbagai antarabangsa telefon aktiviti ' +
    'universiti kualiti basikal sahaja baharu manakala berbanding kod akaun maklumat perkhidmatan ' +
    'nombor syarikat tetapan'
  ).split(' '),
);

/** A text's words (runs of letters), lower case. */
function lowerWords(text: string): string[] {
  return text.toLowerCase().match(/\p{L}+/gu) ?? [];
}

/**
 * The language franc-min detects in a sample, as an ISO 639-1 code. Indonesian and Malay, which it
 * gives either almost at random, are told apart by the variety more of whose own word forms the
 * text uses (`words`: the sample's, when already split); franc-min's pick stands when neither uses more.
 */
function francLanguage(sample: string, words?: readonly string[]): string | undefined {
  const detected = ISO3_TO_1[franc(sample, { minLength: MIN_LETTERS })];
  if (detected !== 'id' && detected !== 'ms') return detected;
  let indonesian = 0;
  let malay = 0;
  for (const word of words ?? lowerWords(sample)) {
    if (INDONESIAN_FORMS.has(word)) indonesian++;
    else if (MALAY_FORMS.has(word)) malay++;
  }
  return indonesian > malay ? 'id' : malay > indonesian ? 'ms' : detected;
}

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
  return { lang: francLanguage(sample) ?? null, script: found.script };
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
 * trigram models confuse neighbours (es/pt, id/ms) more often than sites mislabel themselves, unless
 * the text's function words clearly say otherwise (see latinLanguage).
 * Without usable markup, the language detected from the text is used.
 */
export function decideLanguage(hints: LanguageHints, text: string): string {
  const markup = declaredLanguage(hints);
  if (markup === null) return detectTextLanguage(text).lang ?? UNKNOWN_LANG;
  const expected = LANG_SCRIPT[markup] ?? (LATIN_LANGS.has(markup) ? 'latin' : null);
  // A language whose script we do not track cannot be contradicted.
  if (expected === null) return markup;
  const sample = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
  const seen = profile(sample);
  if (seen.script === 'latin' && expected === 'latin') return latinLanguage(markup, sample);
  if (seen.script === null || seen.script === expected) return markup;
  if (expected === 'kana' && seen.script === 'han') return markup;
  return detectTextLanguage(text).lang ?? markup;
}
/** The language the markup and headers declare (see decideLanguage), null when none is usable. */
export function declaredLanguage(hints: LanguageHints): string | null {
  return (
    firstLang(hints.htmlLang) ??
    firstLang(hints.metaContentLanguage) ??
    firstLang(hints.headerContentLanguage) ??
    firstLang(hints.ogLocale)
  );
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
