import { describe, expect, it } from '@jest/globals';
import { composeAccent, placeRunAccent } from './pdf-accents.js';

describe('composeAccent', () => {
  it('makes a letter and a spacing accent the one letter Unicode has for them', () => {
    expect(composeAccent('e', '´')).toBe('é');
    expect(composeAccent('A', '¨')).toBe('Ä');
    expect(composeAccent('c', '¸')).toBe('ç');
    expect(composeAccent('s', 'ˇ')).toBe('š');
    expect(composeAccent('o', '˝')).toBe('ő');
    // TeX puts the accent over a dotless i.
    expect(composeAccent('ı', '´')).toBe('í');
  });

  it('gives null for what is no such letter', () => {
    expect(composeAccent('q', '´')).toBeNull();
    expect(composeAccent('1', '´')).toBeNull();
    expect(composeAccent(' ', '´')).toBeNull();
    expect(composeAccent('e', "'")).toBeNull();
  });
});

describe('placeRunAccent', () => {
  it('puts an accent drawn back over the text before it on that text’s last letter', () => {
    expect(placeRunAccent('The role of mentorship in prote', '´ge', true)).toEqual([
      'The role of mentorship in proté',
      'ge',
    ]);
    expect(placeRunAccent('& Luı', '´s A. Nunes Amaral', true)).toEqual(['& Luí', 's A. Nunes Amaral']);
  });

  it('puts an accent drawn where it stands on the next letter', () => {
    expect(placeRunAccent('Caf', '´e au lait', false)).toEqual(['Caf', 'é au lait']);
    // Drawn back over a space, it is still the next letter's.
    expect(placeRunAccent('the ', '´Ecole', true)).toEqual(['the ', 'École']);
  });

  it('leaves a run that makes no letter, and an ASCII grave that is not drawn over one', () => {
    expect(placeRunAccent('x', '´ 2', false)).toEqual(['x', '´ 2']);
    expect(placeRunAccent('run ', '`echo`', false)).toEqual(['run ', '`echo`']);
    expect(placeRunAccent('voil', '`a', true)).toEqual(['voil', '`a']);
    expect(placeRunAccent('voila', '` tout', true)).toEqual(['voilà', ' tout']);
    expect(placeRunAccent('plain', ' text', true)).toEqual(['plain', ' text']);
  });
});
