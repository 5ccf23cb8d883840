import { describe, expect, it } from '@jest/globals';
import { isStopWord } from './stop-words.js';

describe('isStopWord', () => {
  it('knows English and Chinese function words', () => {
    expect(isStopWord('the')).toBe(true);
    expect(isStopWord('of')).toBe(true);
    expect(isStopWord('的')).toBe(true);
    // Contractions of not, as tokenize writes them (`don't` → `dont`), are auxiliaries too.
    expect(isStopWord('dont')).toBe(true);
    expect(isStopWord('wouldnt')).toBe(true);
  });

  it('does not treat content words as stop words', () => {
    expect(isStopWord('aircraft')).toBe(false);
    expect(isStopWord('搜索')).toBe(false);
    expect(isStopWord('The')).toBe(false);
  });
});
