import { describe, expect, it } from '@jest/globals';
import { holdsRun } from './fresh.js';

describe('holdsRun', () => {
  it('finds a run of whole tokens anywhere in the text', () => {
    expect(holdsRun('boundari layer flow', 'boundari layer flow')).toBe(true);
    expect(holdsRun('the boundari layer flow over a plate', 'boundari layer flow')).toBe(true);
    expect(holdsRun('a plate in boundari layer', 'boundari layer')).toBe(true);
    expect(holdsRun('boundari layer', 'layer')).toBe(true);
  });

  it('never matches part of a token, and looks past such a match', () => {
    expect(holdsRun('subboundari layer flow', 'boundari layer')).toBe(false);
    expect(holdsRun('boundari layers', 'boundari layer')).toBe(false);
    expect(holdsRun('boundari layers then boundari layer', 'boundari layer')).toBe(true);
    expect(holdsRun('boundari layer flow', 'layer flo')).toBe(false);
  });

  it('matches nothing in an empty text, and an empty run everywhere', () => {
    expect(holdsRun('', 'layer')).toBe(false);
    expect(holdsRun('layer', '')).toBe(true);
  });
});
