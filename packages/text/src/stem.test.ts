import { describe, expect, it } from '@jest/globals';
import { indexTokens, stemsLanguage, stemToken } from './stem.js';

describe('stemming', () => {
  it('stems English words on both sides to one form', () => {
    expect(stemToken('dies')).toBe(stemToken('died'));
    expect(stemToken('panels')).toBe('panel');
    expect(indexTokens('Solar Panels handle robots', 'en')).toEqual(['solar', 'panel', 'handl', 'robot']);
  });

  it('leaves other languages, numbers, short words and other scripts as they are', () => {
    expect(stemsLanguage('fr')).toBe(false);
    expect(indexTokens('Les panneaux solaires', 'fr')).toEqual(['les', 'panneaux', 'solaires']);
    expect(stemToken('1990s')).toBe('1990s');
    expect(stemToken('is')).toBe('is');
    expect(indexTokens('北京天气 reports', 'en')).toEqual(['北京', '京天', '天气', '气', 'report']);
  });
});
