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
 * Japanese words of grammar, written in hiragana: particles, the copula, auxiliaries and the
 * pieces of inflection ICU gives apart (`食べました` comes as 食, べ, ま, した). Beside other words
 * they say nothing a page must hold (as the particles Lucene's Japanese analyzer drops).
 */
const GRAMMAR_WORDS = new Set(
  (
    'は が を に で と へ の も や か ね よ な ば て た だ し つ ず ぬ ' +
    'から まで より けど けれど ので のに ながら など って という とか だけ ほど くらい ぐらい しか こそ でも ' +
    'です でした ます ました ません ましょう だった である でしょう だろう ' +
    'する します しました しない して した しま せる させる れる られる ' +
    'いる います いた いて てい ている ていた てる ある あります あった なる なります なった ' +
    'ない なかった たい たく たかった こと もの ため よう そう'
  ).split(' '),
);

/**
 * The tokens of a run of Japanese, in segments whose tokens are written in a row in a page that says
 * the same in other forms. Its grammar words (see {@link GRAMMAR_WORDS}) are left out, and a verb
 * or adjective is asked by the part its forms share (as a stemmer does in spaced languages): the
 * page of `東京で寿司を食べました` is found by `寿司を食べたい` (寿司, 食べ). A word of kanji with
 * its ending in kana gives its kanji and the first kana (`食べる`, `新しい`, `行き` → 食べ, 新し,
 * 行き), or, in its dictionary form, itself (its forms asked, see {@link inflectedForms}); the kana
 * ICU gives apart after one kanji are its ending (`食` `べた` → 食べ); what follows such a word up
 * to the next word is its inflection, left out. A word in kana alone (`おいしい`) stays.
 */
export function japaneseSegments(tokens: readonly string[]): string[][] {
  const segments: string[][] = [];
  let segment: string[] = [];
  const cut = () => {
    if (segment.length > 0) segments.push(segment);
    segment = [];
  };
  let inflecting = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (ALL_HIRAGANA.test(token)) {
      if (inflecting || GRAMMAR_WORDS.has(token)) cut();
      else segment.push(token);
      continue;
    }
    inflecting = false;
    const ending = KANJI_THEN_HIRAGANA.exec(token);
    const next = tokens[i + 1];
    let stem: string | null = null;
    if (ending) {
      const [, kanji, kana] = ending as unknown as [string, string, string];
      stem = kana.length === 1 && FORMS_OF_ENDING[kana] ? token : kanji + kana[0];
    } else if (
      ALL_KANJI.test(token) &&
      Array.from(token).length === 1 &&
      next &&
      ALL_HIRAGANA.test(next) &&
      !GRAMMAR_WORDS.has(next)
    ) {
      stem = token + next[0];
    }
    if (stem === null) {
      segment.push(token);
      continue;
    }
    // What the page writes after the stem differs by form: the stem ends its segment.
    segment.push(stem);
    cut();
    inflecting = true;
  }
  cut();
  return segments;
}

/** A Japanese verb's or adjective's forms, when the word is one in its dictionary form (see {@link FORMS_OF_ENDING}). */
export function inflectedForms(word: string): string[] | null {
  const ending = KANJI_THEN_HIRAGANA.exec(word);
  if (!ending || ending[2]!.length !== 1) return null;
  const forms = FORMS_OF_ENDING[ending[2]!];
  return forms ? Array.from(forms, (kana) => ending[1]! + kana) : null;
}
