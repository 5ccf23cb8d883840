import { describe, expect, it } from '@jest/globals';
import { indexTokens } from '@quarry/text';
import { FEEDBACK_TERMS, feedbackScores } from './feedback.js';

const tokens = (text: string): string[] => indexTokens(text, 'en');

/** Pages about wing flutter, the question's topic, in words the question does not use. */
const onTopic = [
  'Flutter of aeroelastic models: wind tunnel tests of wing flutter, stiffness and damping of the model.',
  'Wing flutter and divergence: the aeroelastic model in the wind tunnel, its stiffness scaled.',
  'Aeroelastic similarity: flutter speed, stiffness and mass of a wind tunnel model of the wing.',
];

describe('feedbackScores', () => {
  it('moves up a page holding the words the best pages share above one holding only a question word', () => {
    const candidates = [
      ...onTopic.map((text, i) => ({ score: 10 - i, tokens: tokens(text) })),
      // Off the topic: the question's word `models`, often, and nothing else of the topic.
      { score: 6.5, tokens: tokens('Fashion models and models of cars: model trains for model makers.') },
      // On it, with none of the question's words (its score is the lowest).
      { score: 6, tokens: tokens('Flutter and divergence of a swept wing: stiffness, damping, wind tunnel.') },
    ];
    const scores = feedbackScores(candidates);
    expect(scores[4]).toBeGreaterThan(scores[3]!);
    // The best page stays first; the scores stay within the span of the ones given.
    expect(Math.max(...scores)).toBe(scores[0]);
    for (const score of scores) {
      expect(score).toBeGreaterThanOrEqual(6);
      expect(score).toBeLessThanOrEqual(10);
    }
  });

  it('leaves one result, or pages without a word for the model, as they are', () => {
    expect(feedbackScores([{ score: 3, tokens: tokens('wing flutter') }])).toEqual([3]);
    const stops = [
      { score: 5, tokens: tokens('what is the of and to 1950') },
      { score: 4, tokens: tokens('it was this that 2') },
    ];
    expect(feedbackScores(stops)).toEqual([5, 4]);
    expect(feedbackScores([])).toEqual([]);
  });

  it('weighs the model by the best pages: a page like the first ranks above one like the tenth', () => {
    const filler = Array.from({ length: 8 }, (_, i) => ({ score: 9 - i * 0.1, tokens: tokens(`page ${i} misc`) }));
    const candidates = [
      { score: 10, tokens: tokens('glacier ice melt glacier') },
      ...filler,
      { score: 1, tokens: tokens('volcano lava ash volcano') },
      { score: 0.5, tokens: tokens('volcano lava eruption') },
      { score: 0.5, tokens: tokens('glacier ice retreat') },
    ];
    const scores = feedbackScores(candidates);
    // Equal scores, equal lengths: the one sharing the best page's words gains more.
    expect(scores[11]).toBeGreaterThan(scores[10]!);
  });

  it('builds the model of at most FEEDBACK_TERMS words, the heaviest', () => {
    // The best page holds word i (30 − i) times: the last words weigh least and are left out.
    const count = FEEDBACK_TERMS + 10;
    const words = Array.from(
      { length: count },
      (_, i) => `word${String.fromCharCode(97 + Math.floor(i / 26))}${String.fromCharCode(97 + (i % 26))}`,
    );
    const best = words.flatMap((word, i) => Array(count - i).fill(word)).join(' ');
    const candidates = [
      { score: 10, tokens: tokens(best) },
      { score: 1, tokens: tokens(words.slice(FEEDBACK_TERMS - 5, FEEDBACK_TERMS).join(' ')) },
      { score: 1, tokens: tokens(words.slice(FEEDBACK_TERMS, FEEDBACK_TERMS + 5).join(' ')) },
    ];
    const scores = feedbackScores(candidates);
    expect(scores[1]).toBeGreaterThan(scores[2]!);
    // The words past the model move nothing: the page holding only them keeps the lowest score.
    expect(scores[2]).toBe(1);
  });
});
