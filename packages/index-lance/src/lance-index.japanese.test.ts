import { expect } from '@jest/globals';
import { makePage } from '@quarry/index-contract';
import { eachPlan } from './testing/each-plan.js';

const ja = (id: string, title: string, body: string) =>
  makePage(id, `https://ja.example.jp/${id}`, title, body, { lang: 'ja' });

/**
 * Pages that say what a query asks in other forms of its verbs and adjectives, and with other
 * particles and auxiliaries: `寿司を食べたい` is asked of a page that ate sushi (`食べました`).
 */
const PAGES = [
  ja('sushi', '旅行記', '昨日は東京で寿司を食べました。とても新しかったです。'),
  ja('sushi-plan', '計画', '来週、東京の寿司屋に行って、寿司を食べてみます。'),
  ja('letter', '手紙', '先生に手紙を書いた。長い手紙になりました。'),
  ja('book', '読書', '毎晩、新しく買った本を読みます。本屋で見つけました。'),
  ja('study', '学習', '毎日、日本語を勉強しています。漢字の勉強は難しいです。'),
  ja('kyoto', '京都', '去年の秋、京都に行きました。紅葉がきれいでした。'),
  ja('mountain', '富士山', '富士山は日本で一番高い山です。山に登りました。'),
  // Holds the kanji of the queries' words in other words, never their forms.
  ja('other', '辞書', '食品の書類と読者の高校、新聞社の見学。東京駅。'),
  // Words in hiragana that ICU cuts into particles (`か` `に`), a noun with kana, a stem's noun.
  ja('crab', '冬の旅', '冬の北海道でかにを食べました。ずわいがにが有名です。'),
  ja('yakisoba', '屋台', '屋台の焼きそばはソースの香りがします。'),
  ja('gyoza', '餃子', '餃子を焼きました。焼き色がきれいです。'),
  ja('food', '珍味', '珍しい食べ物の話。食べ物アレルギーに注意。'),
  ja('breakfast', '朝', '毎朝パンを食べる。'),
  ja('future', '都市', '未来の都市について。'),
  ja('visit', '来日', '友達が日本に来た。'),
];

eachPlan(
  'a Japanese query finds the pages saying it in other forms',
  () => PAGES,
  async (ids) => {
    const sorted = async (q: string, match: 'all' | 'any' = 'all') => (await ids(q, match)).sort();
    // A verb's dictionary form finds its other forms, not other words of its kanji; a page writing
    // the form typed first, above a noun of its stem (`食べ物`).
    expect(await sorted('食べる')).toEqual(['breakfast', 'crab', 'food', 'sushi', 'sushi-plan']);
    expect((await ids('食べる'))[0]).toBe('breakfast');
    expect(await sorted('寿司を食べたい')).toEqual(['sushi', 'sushi-plan']);
    expect(await sorted('来た')).toEqual(['visit']);
    // In an OR group too.
    expect(await sorted('来る OR 書く')).toEqual(['letter', 'visit']);
    // Hiragana words ICU cuts apart, and a noun written with kana, are asked whole.
    expect(await sorted('北海道のかに')).toEqual(['crab']);
    expect(await sorted('かにを食べたい')).toEqual(['crab']);
    expect(await sorted('ずわいがに')).toEqual(['crab']);
    expect(await sorted('焼きそば')).toEqual(['yakisoba']);
    expect(await sorted('東京で寿司を食べる')).toEqual(['sushi', 'sushi-plan']);
    expect(await sorted('手紙を書く')).toEqual(['letter']);
    expect(await sorted('本を読む')).toEqual(['book']);
    expect(await sorted('京都に行きたい')).toEqual(['kyoto']);
    // An adjective likewise (`高い`: 高い; `新しい`: 新しく, 新しかった).
    expect(await sorted('高い')).toEqual(['mountain']);
    expect(await sorted('新しい')).toEqual(['book', 'sushi']);
    // A noun with する: its auxiliaries say nothing a page must hold.
    expect(await sorted('日本語を勉強する')).toEqual(['study']);
    // Questions with their words optional rank the page saying it first.
    expect((await ids('富士山に登る', 'any'))[0]).toBe('mountain');
    expect((await ids('手紙を書きたい', 'any'))[0]).toBe('letter');
    // Exact text and quoted phrases are as typed.
    expect(await sorted('"寿司を食べました"')).toEqual(['sushi']);
    expect(await sorted('東京')).toEqual(['other', 'sushi', 'sushi-plan']);
  },
);
