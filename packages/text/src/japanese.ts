/** Whether a run of CJK text is Japanese: it holds hiragana, which Chinese does not. */
export function isJapanese(text: string): boolean {
  return HIRAGANA.test(text);
}

const HIRAGANA = /\p{Script=Hiragana}/u;
const ALL_HIRAGANA = /^[\p{Script=Hiragana}\u30fc]+$/u;
const ALL_KANJI = /^[\p{Script=Han}\u3005]+$/u;
/** A word of kanji with its ending in hiragana (`読む`, `食べる`, `新しい`, `行き`). */
const KANJI_THEN_HIRAGANA = /^([\p{Script=Han}\u3005]+)(\p{Script=Hiragana}+)$/u;

/**
 * The kana a Japanese verb's or adjective's dictionary form ends in (`読む`, `書く`, `見る`, `高い`),
 * each with the kana its other forms have in its place (`読ま`ない, `読み`ます, `読め`ば, `読も`う,
 * `読ん`だ): the conjugation's rows, the euphonic `い`, `っ`, `ん` of the past, and for `る` also the
 * endings written straight onto an ichidan verb's stem (`見た`, `見ます`, `見て`, `見ない`).
 */
const FORMS_OF_ENDING: Readonly<Record<string, string>> = {
  う: 'うわいえおっ',
  く: 'くかきけこいっ',
  ぐ: 'ぐがぎげごい',
  す: 'すさしせそ',
  つ: 'つたちてとっ',
  ぬ: 'ぬなにねのん',
  ぶ: 'ぶばびべぼん',
  む: 'むまみめもん',
  る: 'るらりれろったまてなよさず',
  い: 'いくかけさすそめ',
};

/**
 * Particles that link a word to the next (case and binding particles): after a word, a hiragana run
 * opening with one is grammar, not the word's inflection; before a word, one closing a run is
 * taken off it (`かにを` `食べたい` → かに).
 */
const PARTICLES = new Set(
  'は が を に で と へ の も や か ね よ から まで より には では とは にも でも とも への での との'.split(' '),
);

/**
 * Japanese words of grammar, written in hiragana: particles, the copula, auxiliaries. After other
 * words they say nothing a page must hold (as the particles Lucene's Japanese analyzer drops); a run
 * of hiragana that opens a query is a word (`かに`, `から揚げ`, `ようかん`), whatever ICU cuts it into.
 */
const GRAMMAR_WORDS = new Set([
  ...PARTICLES,
  ...(
    'な ば て た だ し つ ず ぬ けど けれど ので のに って という とか だけ ほど くらい ぐらい しか こそ ' +
    'です でした ます ました ません ましょう だった である でしょう だろう ' +
    'する します しました しない して した しま せる させる れる られる ' +
    'いる います いた いて てい ている ていた てる ある あります あった なる なります なった ' +
    'ない なかった たい たく たかった'
  ).split(' '),
]);

/**
 * What may follow a verb's or adjective's stem and its first kana (`食べ`+`る`, `新し`+`い`,
 * `行き`+`たい`): a word whose kana after that first one are none of these is not inflected as
 * typed (`焼きそば`, `雪だるま`, `子ども`), and is asked whole.
 */
const INFLECTION =
  /^(?:る|い|う|く|た|だ|て|で|ば|ず|ぬ|さ|ない|なかった|なく|ます|ました|ません|ましょう|たい|たく|たかった|れば|かった|くて|そう|よう|ろう|れる|られる|せる|させる|ている|ていた|てる|ちゃう|とく)$/;

/** A Japanese query word and what it is asked as: any of `forms` (itself alone when it has no others). */
export interface JapaneseWord {
  readonly text: string;
  readonly forms: readonly string[];
}

/**
 * The words of a run of Japanese (its ICU tokens) as search asks them, or, for each part written
 * with no hiragana (kanji, katakana, letters, numbers), its tokens, for the caller to make words
 * of as it does for Chinese. Hiragana runs are read by where they stand:
 * - after a kanji word, opening with other than a particle, they are its ending: the word is asked
 *   by the part its forms share (`食` `べた` `い` → 食べ; `来` `た` → 来た; `書` `い` `てい` `ます` →
 *   書い; `勉強` `し` `てい` `ます` → 勉強), the rest left out;
 * - otherwise their particles are taken off (before, when a word came before; after, when one
 *   follows) and what is left, unless grammar (see {@link GRAMMAR_WORDS}), is a word of its own:
 *   `北海道` `の` `か` `に` → 北海道, かに; `ずわいがに` stays whole;
 * - at the start, before a kanji word, with no particle between, they are one word with it
 *   (`から揚げ`, `ゆで卵`, `かに玉`), but for an adjective ending in `い` (`かわいい` `猫`).
 * A kanji word with a kana ending (one token) is asked by its kanji and first kana where the rest is
 * an inflection (`食べる`, `新しい` → 食べ, 新し; `焼きそば` stays), or by its forms in its
 * dictionary form (`書く`, see {@link inflectedForms}); a kanji alone before a particle, by itself
 * with each particle (`本を` → 本を OR 本が OR 本は…). A stem is asked with the word as typed beside
 * it, so that pages writing the typed form rank first.
 */
export function japaneseWords(tokens: readonly string[]): (JapaneseWord | { readonly tokens: string[] })[] {
  const out: (JapaneseWord | { readonly tokens: string[] })[] = [];
  let plain: string[] = [];
  const flush = () => {
    if (plain.length > 0) out.push({ tokens: plain });
    plain = [];
  };
  const word = (text: string, forms: readonly string[] = [text]) => {
    flush();
    out.push({ text, forms });
  };
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i]!;
    if (ALL_HIRAGANA.test(token)) {
      let end = i;
      while (end < tokens.length && ALL_HIRAGANA.test(tokens[end]!)) end++;
      const run = tokens.slice(i, end);
      const after = tokens[end];
      // Particles off either side of a run between words; a run opening the query keeps its start.
      let from = 0;
      let to = run.length;
      const length = (a: number, b: number) => run.slice(a, b).join('').length;
      if (i > 0) while (from < to - 1 && PARTICLES.has(run[from]!) && length(from + 1, to) >= 2) from++;
      if (after !== undefined) while (to > from + 1 && PARTICLES.has(run[to - 1]!) && length(from, to - 1) >= 2) to--;
      const kept = run.slice(from, to);
      const text = kept.join('');
      const grammar =
        GRAMMAR_WORDS.has(text) ||
        text.length === 1 ||
        (kept.every((t) => GRAMMAR_WORDS.has(t)) && text.length > kept.length);
      if (i > 0 && grammar) {
        // Grammar after a word (`で`, `では`, `しています`; `か` `に` is a word ICU does not know).
      } else if (i === 0 && to === run.length && after !== undefined && !text.endsWith('い')) {
        // A compound opening the query: the kana and the word after them as one.
        word(`${text}${after}`);
        i = end + 1;
        continue;
      } else word(text);
      flush();
      i = end;
      continue;
    }
    const next = tokens[i + 1];
    const opensInflection = next !== undefined && ALL_HIRAGANA.test(next) && !PARTICLES.has(next);
    const ending = KANJI_THEN_HIRAGANA.exec(token);
    if (ending) {
      const [, kanji, kana] = ending as unknown as [string, string, string];
      const dictionary = kana.length === 1 && !opensInflection ? inflectedForms(kanji, kana) : null;
      if (dictionary) word(token, dictionary);
      else if (kana.length > 1 && INFLECTION.test(kana.slice(1))) stemmed(token, kanji + kana[0]!);
      else word(token);
      i = skipInflection(tokens, i + 1);
      continue;
    }
    // A kanji alone (not written onto a number or another word: `3月9日に`).
    if (
      plain.length === 0 &&
      ALL_KANJI.test(token) &&
      Array.from(token).length === 1 &&
      next !== undefined &&
      ALL_HIRAGANA.test(next)
    ) {
      if (opensInflection && !INFLECTION.test(next.slice(1)) && next.length > 1) {
        // Another word written onto it (`鹿` `せんべい`, `卵` `かけ`): asked as typed.
        word(`${token}${next}`);
        i += 2;
        continue;
      }
      if (opensInflection) {
        // One kanji and its ending, which ICU gives apart (`来` `た`, `点` `て`, `食` `べた`).
        stemmed(`${token}${next}`, token + next[0]!);
        const end = skipInflection(tokens, i + 1);
        // A kanji written on a one-kana ending (`点` `て` `方`): one word with it.
        if (end === i + 2 && next.length === 1 && tokens[end] !== undefined && ALL_KANJI.test(tokens[end]!)) {
          const last = out.pop() as JapaneseWord;
          word(`${last.text}${tokens[end]}`);
          i = end + 1;
          continue;
        }
        i = end;
        continue;
      }
      // A kanji alone before a particle: with each particle, as a page would write it.
      word(token, [...new Set([`${token}${next}`, ...[...PARTICLE_PAIRS].map((particle) => token + particle)])]);
      i++;
      continue;
    }
    plain.push(token);
    if (ALL_KANJI.test(token) && opensInflection) {
      // A word of several kanji and its ending (`勉強` `し` `てい` `ます`): the ending left out.
      flush();
      i = skipInflection(tokens, i + 1);
    } else i++;
  }
  flush();
  return out;

  /** A stem asked with the word as typed beside it. */
  function stemmed(typed: string, stem: string): void {
    word(stem, typed === stem ? [stem] : [typed, stem]);
  }
}

/**
 * The particles a one-kanji noun is asked with besides the one typed (see {@link japaneseWords}):
 * not `の`, which ends most compounds written before a noun (`日本の` would find `本`).
 */
const PARTICLE_PAIRS = new Set('を が は に で と も へ や'.split(' '));

/** Where the inflection after a word ends: past the hiragana tokens that follow it unless a particle opens them. */
function skipInflection(tokens: readonly string[], from: number): number {
  const first = tokens[from];
  if (first === undefined || !ALL_HIRAGANA.test(first) || PARTICLES.has(first)) return from;
  let end = from;
  while (end < tokens.length && ALL_HIRAGANA.test(tokens[end]!) && !(end > from && PARTICLES.has(tokens[end]!))) end++;
  return end;
}

/**
 * The forms of a verb or adjective written as `kanji` and a one-kana ending, when that ending is a
 * dictionary form's (see {@link FORMS_OF_ENDING}).
 */
function inflectedForms(kanji: string, ending: string): string[] | null {
  const forms = FORMS_OF_ENDING[ending];
  return forms ? Array.from(forms, (kana) => kanji + kana) : null;
}
