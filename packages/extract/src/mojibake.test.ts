import { describe, expect, it } from '@jest/globals';
import { mojibakeRepairOf, repairMojibake } from './mojibake.js';

/** Text as a page saved twice as UTF-8 shows it: its UTF-8 bytes read back one character a byte. */
const twice = (text: string): string => String.fromCharCode(...new TextEncoder().encode(text));

/** A page's text as the extraction repairs it. */
const repairTextMojibake = (text: string): string => mojibakeRepairOf(text)?.(text) ?? text;

describe('repairMojibake', () => {
  it('decodes the runs that read as UTF-8 and leaves the rest', () => {
    expect(repairMojibake(twice('Investor’s Guide — 2025'))).toBe('Investor’s Guide — 2025');
    expect(repairMojibake('Café au lait')).toBe('Café au lait');
  });
});

describe('mojibakeRepairOf', () => {
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

  it('drops the stray Â of a sign or a no-break space saved twice as UTF-8, whatever else the text shows', () => {
    // A no-break space and a copyright sign, each saved twice.
    expect(repairTextMojibake('Save with Embrace\u00c2\u00a0today. \u00c2\u00a9 2025 Embrace')).toBe(
      'Save with Embrace\u00a0today. \u00a9 2025 Embrace',
    );
    // The no-break space already turned into a space or a line end by the text's layout.
    expect(repairTextMojibake('with Embrace\u00c2 for most\nplans with Embrace\u00c2\nNext')).toBe(
      'with Embrace for most\nplans with Embrace\nNext',
    );
    // Runs of such spaces standing alone, after a sign, a digit or each other, or starting a line.
    expect(repairTextMojibake('rates vary widely. \u00c2 \u00c2 \u00c2\n1. \u00c2 \u00c2 Myth: all\n\u00c2 Next')).toBe(
      'rates vary widely.\n1. Myth: all\nNext',
    );
    // A text repaired as a whole loses the stray Â of its laid-out spaces too.
    expect(repairTextMojibake(`${twice('let’s see they’re')} with Embrace\u00c2\nNext`)).toBe(
      'let’s see they’re with Embrace\nNext',
    );
    // French two-byte pairs stay as they are when only the stray Â is repaired.
    expect(repairTextMojibake('«ÉTÉ» costs 10\u00c2\u00a0€')).toBe('«ÉTÉ» costs 10\u00a0€');
  });

  it('keeps an Â that is a letter', () => {
    for (const text of ['ÂGE DE PIERRE', 'ROMÂNIA', 'Âme', 'CÂN BẰNG', 'Letters: A Ă Â B', 'Château Â']) {
      expect(repairTextMojibake(text)).toBe(text);
    }
    expect(mojibakeRepairOf('Plain text without it')).toBeNull();
  });
});
