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

  it('takes the <h1> a declared title confirms, whole or as one of its parts', () => {
    const sources = { ogTitle: 'Using ML To Personalize Shopping', docTitle: 'How ML Personalizes Shopping | Shop' };
    expect(title({ ...sources, h1s: ['Shop', 'How ML Personalizes Shopping'] })).toBe('How ML Personalizes Shopping');
    // Unconfirmed, the declared title wins; on a declared article the shown headline does.
    expect(title({ ogTitle: 'Using ML To Personalize Shopping', h1: 'How ML Personalizes Shopping' })).toBe(
      'Using ML To Personalize Shopping',
    );
    expect(
      title({ ogTitle: 'Using ML To Personalize Shopping', h1: 'How ML Personalizes Shopping', declaresArticle: true }),
    ).toBe('How ML Personalizes Shopping');
    // twitter:title alone does not confirm an <h1>.
    expect(title({ ogTitle: 'Same story', twitterTitle: 'Other words', h1: 'Other words' })).toBe('Same story');
  });

  it('takes an <h1> that is a shorter run of the declared title', () => {
    expect(title({ ogTitle: 'Headlamps for Camping, Hiking & Running | REI', h1: 'Headlamps' })).toBe('Headlamps');
    // Nearly the whole title is the title reworded, not a shorter name.
    expect(title({ ogTitle: 'Best Tutoring Platforms of 2025', h1: 'Best Tutoring Platforms of' })).toBe(
      'Best Tutoring Platforms of 2025',
    );
  });

  it('skips an og:title that is only the site name or cut short', () => {
    expect(title({ ogTitle: 'Robomow', docTitle: 'Which mower for which lawn? | Robomow', siteName: 'Robomow' })).toBe(
      'Which mower for which lawn?',
    );
    expect(
      title({
        ogTitle: 'What do you guys think will be the...',
        docTitle: 'What do you guys think will be the trend?',
      }),
    ).toBe('What do you guys think will be the trend?');
  });

  it('drops a site prefix, a site-naming <h1> and section tails, keeping the site on its home page', () => {
    const arch = { url: 'https://bbs.archlinux.org/viewtopic.php?id=1', h1s: ['Arch Linux'] };
    expect(
      title({ ...arch, docTitle: 'What happened with Arch Linux ISO / Arch Discussion / Arch Linux Forums' }),
    ).toBe('What happened with Arch Linux ISO');
    expect(title({ docTitle: 'Garnix Blog: Hardware-Attested Nix Builds', url: 'https://garnix.io/blog/x' })).toBe(
      'Hardware-Attested Nix Builds',
    );
    expect(title({ docTitle: 'Slashdot: News for nerds', url: 'https://slashdot.org/' })).toBe(
      'Slashdot: News for nerds',
    );
  });

  it('repairs UTF-8 read as Windows-1252', () => {
    expect(title({ docTitle: 'A DIY Investor\u00e2\u20ac\u2122s Guide' })).toBe('A DIY Investor’s Guide');
  });
});
