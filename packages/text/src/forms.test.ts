import { describe, expect, it } from '@jest/globals';
import { formInText } from './forms.js';

describe('word forms in a text', () => {
  it('finds the exact word, whole and in any case', () => {
    expect(formInText('Running shoes for trails', 'running')).toBe('exact');
    expect(formInText('She is RUNNING.', 'running')).toBe('exact');
    expect(formInText('a front-runner', 'runner')).toBe('exact');
  });

  it('tells other forms of the stem from the exact one', () => {
    expect(formInText('She runs the trail daily', 'running')).toBe('other');
    expect(formInText('The long run is over', 'running')).toBe('other');
    expect(formInText('He was running late', 'run')).toBe('other');
    // Porter changes the stem's end: happy → happi, died → di.
    expect(formInText('Happiness for all', 'happy')).toBe('other');
    // Porter keeps `happier` apart from `happy`, so the index does too.
    expect(formInText('The happier, the better', 'happy')).toBe('unseen');
    expect(formInText('The plant dies in winter', 'died')).toBe('other');
  });

  it('does not take the start of a contraction of not for a word, and finds the contraction', () => {
    expect(formInText("We won't go", 'won')).toBe('unseen');
    expect(formInText("We haven't been", 'haven')).toBe('unseen');
    expect(formInText("We won't go, we won", 'won')).toBe('exact');
    expect(formInText('We WON’T go', 'wont')).toBe('exact');
  });

  it('does not take a longer word or another stem for a form', () => {
    expect(formInText('rerunning the numbers', 'running')).toBe('unseen');
    expect(formInText('a runway and a rung', 'running')).toBe('unseen');
    expect(formInText('nothing here', 'running')).toBe('unseen');
  });
});
