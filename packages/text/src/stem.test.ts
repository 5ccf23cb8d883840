import { describe, expect, it } from '@jest/globals';
import { indexTokens, stemIn, stemmedLanguages, stemsLanguage, stemToken } from './stem.js';

describe('stemming', () => {
  it('stems English words on both sides to one form', () => {
    expect(stemToken('dies')).toBe(stemToken('died'));
    expect(stemToken('panels')).toBe('panel');
    expect(indexTokens('Solar Panels handle robots', 'en')).toEqual(['solar', 'panel', 'handl', 'robot']);
  });

  it('stems the languages Snowball covers by their own rules, folded words in and out', () => {
    const same = (lang: string, ...words: string[]) =>
      expect(new Set(words.map((word) => indexTokens(word, lang).join(' '))).size).toBe(1);
    same('ru', 'Москва', 'Москвы', 'Москве');
    same('ru', 'пассажиры', 'пассажиров');
    same('ru', 'Черёмушки', 'Черёмушках', 'черемушках');
    // Adjectives in `-ый` and `-ий` with their other forms: `й` is kept for the stemmer to see.
    same('ru', 'новый', 'новая', 'нового', 'новые');
    same('ru', 'последний', 'последняя', 'последнего');
    same('de', 'Stromnetz', 'Stromnetze');
    same('de', 'Übertragungsnetzbetreiber', 'Übertragungsnetzbetreibers', 'ubertragungsnetzbetreibers');
    same('fr', 'renseignements', 'renseignement');
    same('es', 'barista', 'baristas');
    same('it', 'stazione', 'stazioni');
    same('pt', 'cidade', 'cidades');
    same('nl', 'boek', 'boeken');
    same('sv', 'bil', 'bilar');
    expect(indexTokens('Метро Москвы', 'ru')).toEqual(['метр', 'москв']);
    expect(stemIn('de', 'stromnetze')).toBe('stromnetz');
    expect(stemsLanguage('nb') && stemsLanguage('fi') && stemsLanguage('da')).toBe(true);
    expect(stemmedLanguages()[0]).toBe('en');
  });

  it('leaves unstemmed languages, numbers, short words and other scripts as they are', () => {
    expect(stemsLanguage('zh')).toBe(false);
    expect(stemsLanguage('und')).toBe(false);
    expect(indexTokens('Les panneaux solaires', 'und')).toEqual(['les', 'panneaux', 'solaires']);
    expect(stemIn('und', 'panneaux')).toBe('panneaux');
    expect(stemToken('1990s')).toBe('1990s');
    expect(stemToken('is')).toBe('is');
    expect(stemIn('de', 'a4-papier')).toBe('a4-papier');
    // Each stemmer takes the words of its script only: Cyrillic on a German page, Latin on a Russian one.
    expect(indexTokens('Москвы', 'de')).toEqual(['москвы']);
    expect(indexTokens('stations', 'ru')).toEqual(['stations']);
    expect(indexTokens('北京天气 reports', 'en')).toEqual(['北京', '京天', '天气', '气', 'report']);
  });
});
