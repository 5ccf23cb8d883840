/**
 * Stop words: words so frequent that they carry almost no meaning for ranking. The SQLite backend
 * drops them from an AND while other words remain (they would make a query scan most of the index
 * for no gain); phrases always keep them. Lists hold folded tokens as {@link tokenize} produces them.
 */

/**
 * Common English function words (articles, pronouns, auxiliaries, prepositions, conjunctions), and
 * the auxiliaries' contractions with `not` as {@link tokenize} writes them (`don't` → `dont`).
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'aint arent cant couldnt didnt doesnt dont hadnt hasnt havent isnt mightnt mustnt neednt shant shouldnt ' +
    'wasnt werent wont wouldnt ' +
    'a about above after again against all am an and any are as at be because been before being below between ' +
    'both but by can could did do does doing down during each few for from further had has have having he her ' +
    'here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not ' +
    'of off on once only or other our ours ourselves out over own same she should so some such than that the ' +
    'their theirs them themselves then there these they this those through to too under until up very was we ' +
    'were what when where which while who whom why will with would you your yours yourself yourselves'
  ).split(' '),
);

/** Chinese function words: structural particles, common prepositions, conjunctions and modal particles. */
export const CHINESE_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    '的 地 得 了 着 过 是 在 和 与 及 或 也 就 都 而 之 这 那 把 被 对 从 向 给 为 以 于 其 该 此 等 吗 呢 吧 啊 呀 嘛 ' +
    '又 并 但 却 则 即 如 若 个 这个 那个 一个 我们 你们 他们 它们 以及 或者 而且 因为 所以 但是 如果 虽然'
  ).split(' '),
);

/** Whether a folded token is an English or Chinese stop word. */
export function isStopWord(token: string): boolean {
  return ENGLISH_STOP_WORDS.has(token) || CHINESE_STOP_WORDS.has(token);
}
