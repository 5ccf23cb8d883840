import { describe, expect, it } from '@jest/globals';
import { titleText } from './title-text.js';

describe('titleText', () => {
  it('decodes entities a site escaped twice', () => {
    expect(titleText('Tools &#8211; Tips &amp; Tricks')).toBe('Tools – Tips & Tricks');
    expect(titleText('TFC8&reg; &#x26; More')).toBe('TFC8® & More');
    expect(titleText('Gold&#039;s Gym')).toBe("Gold's Gym");
  });

  it('leaves what is not an entity, as a browser shows it', () => {
    expect(titleText('AT&T; Q&A &bogus;')).toBe('AT&T; Q&A &bogus;');
  });

  it('removes invisible characters and collapses spaces', () => {
    expect(titleText('Assis\u00ADtance\u200B Program\u00A0 2025 ')).toBe('Assistance Program 2025');
  });

  it('removes private-use characters and direction marks, which no reader can read', () => {
    // A Sina book page's `<title>`: a legacy encoding's character with no Unicode counterpart.
    expect(titleText('投身外交(3)\uE004')).toBe('投身外交(3)');
    expect(titleText('\uF09F Menu \u200Eשלום\u200F')).toBe('Menu שלום');
    expect(titleText('Plane \u{F0001}15')).toBe('Plane 15');
  });
});
