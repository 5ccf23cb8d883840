import { describe, expect, it } from '@jest/globals';
import { reconcileTitle, type TitleSources } from './title.js';

const base: TitleSources = {
  ogTitle: null,
  jsonLdHeadline: null,
  readabilityTitle: null,
  docTitle: '',
  h1: '',
  siteName: null,
  url: 'https://www.vanguard.com/funds/index.html',
};
const title = (over: Partial<TitleSources>): string => reconcileTitle({ ...base, ...over });

describe('reconcileTitle', () => {
  it('prefers og:title, then the JSON-LD headline, Readability, <title> and the <h1>', () => {
    expect(title({ ogTitle: 'OG', jsonLdHeadline: 'LD', docTitle: 'Doc', h1: 'H1' })).toBe('OG');
    expect(title({ jsonLdHeadline: 'LD', docTitle: 'Doc', h1: 'H1' })).toBe('LD');
    expect(title({ docTitle: '', h1: 'The headline' })).toBe('The headline');
  });

  it('is never a bare URL or empty while a source has a title', () => {
    expect(title({ ogTitle: 'https://example.com/page', docTitle: 'Real title' })).toBe('Real title');
    expect(title({ docTitle: '   ', h1: 'Shown headline' })).toBe('Shown headline');
    expect(title({})).toBe('');
  });

  it('removes the site name by site name, host, matching <h1> or a trailing pipe', () => {
    expect(title({ docTitle: 'Index Funds: How to Invest | Vanguard' })).toBe('Index Funds: How to Invest');
    expect(title({ docTitle: 'Vanguard - Index Funds: How to Invest' })).toBe('Index Funds: How to Invest');
    expect(title({ ogTitle: 'Story | The Daily', siteName: 'The Daily' })).toBe('Story');
    expect(title({ docTitle: 'Quickstart — Flask Documentation (3.1.x)', h1: 'Quickstart' })).toBe('Quickstart');
    expect(title({ docTitle: 'What do people love about Rust? | Rust Blog' })).toBe('What do people love about Rust?');
    expect(title({ docTitle: 'Lorem ipsum dolor sit amet – My website' })).toBe('Lorem ipsum dolor sit amet');
  });

  it('keeps separators that belong to the headline', () => {
    expect(title({ docTitle: 'Wool-Runner review: soft - and warm, really warm' })).toBe(
      'Wool-Runner review: soft - and warm, really warm',
    );
    expect(title({ docTitle: 'Site', siteName: 'Site' })).toBe('Site');
  });
});
