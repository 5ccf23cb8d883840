import { describe, expect, it } from '@jest/globals';
import { repairMojibake, repairTextMojibake } from './mojibake.js';

/** Text as a page saved twice as UTF-8 shows it: its UTF-8 bytes read back one character a byte. */
const twice = (text: string): string => String.fromCharCode(...new TextEncoder().encode(text));

describe('repairMojibake', () => {
  it('decodes the runs that read as UTF-8 and leaves the rest', () => {
    expect(repairMojibake(twice('Investor’s Guide — 2025'))).toBe('Investor’s Guide — 2025');
    expect(repairMojibake('Café au lait')).toBe('Café au lait');
  });
});

describe('repairTextMojibake', () => {
  it('repairs a text that shows two or more wide characters decoded wrongly, its two-byte ones too', () => {
    const text = 'Now let’s take a peek at the rates — they’re surprisingly low. Café prices vary.';
    const shown = twice(text);
    expect(shown).toContain('let\u00e2');
    expect(repairTextMojibake(shown)).toBe(text);
    // The same bytes shown through Windows-1252's printable characters.
    expect(repairTextMojibake('Now letâ€™s see — theyâ€™re here.')).toBe('Now let’s see — they’re here.');
  });

  it('leaves text alone that shows one such character or only two-byte pairs', () => {
    const one = `${twice('let’s')} see what happens to Café on its own.`;
    expect(repairTextMojibake(one)).toBe(one);
    const french = 'Le titre «ÉTÉ» et «ÉCOLE» restent tels quels.';
    expect(repairTextMojibake(french)).toBe(french);
    const german = 'So viel „Spaß“ und „Fuß“ hatten wir nie.';
    expect(repairTextMojibake(german)).toBe(german);
  });
});
