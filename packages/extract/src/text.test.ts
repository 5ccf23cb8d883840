import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { blockText, leadLine } from './text.js';

const body = (html: string): Element =>
  (parseHTML(`<html><body>${html}</body></html>`).document as unknown as Document).body;

describe('blockText', () => {
  it('sets blocks apart as paragraphs and keeps the lines of <pre> with their indentation', () => {
    expect(blockText(body('<p>One <b>two</b></p><div>Three<br>four</div><pre>a\n  b</pre>'))).toBe(
      'One two\n\nThree\nfour\n\na\n  b',
    );
  });

  it('keeps the indentation of code in a <pre>, without its blank first and last lines or trailing spaces', () => {
    const html =
      '<p>Run:</p><pre><code>\n\ndef f(x):\n\u00a0\u00a0\u00a0\u00a0return  x  \n\n</code></pre><p>Done.</p>';
    expect(blockText(body(html))).toBe('Run:\n\ndef f(x):\n    return  x\n\nDone.');
  });

  it("starts a new word where a capital begins an element right after another's word", () => {
    expect(blockText(body('<div><span>Gabriel Peal</span><span>OpenAI</span></div>'))).toBe('Gabriel Peal OpenAI');
    expect(blockText(body('<p><span>Reviews</span><span><span>One of the best books</span></span></p>'))).toBe(
      'Reviews One of the best books',
    );
  });

  it('starts a new word where a capitalized word begins an element right after a word in capitals', () => {
    // A product card's brand and model, a size and its name, set apart by the page's styles only.
    expect(blockText(body('<div><span>HOKA</span><span>Clifton 9</span></div>'))).toBe('HOKA Clifton 9');
    expect(blockText(body('<label><span>XS</span><span>Extra small</span></label>'))).toBe('XS Extra small');
    // Capitals split by markup, and a drop cap, run on.
    expect(blockText(body('<p><span>NA</span><span>SA</span></p><p><b>I</b><span>Ndeed</span></p>'))).toBe(
      'NASA\n\nINdeed',
    );
  });

  it('tells where words meet by the text read so far, over elements of one character and astral letters', () => {
    // The word before the capital is written one element a letter: `ab` ends it, not `b`.
    expect(blockText(body('<div><span>a</span><span>b</span><span>Cd</span></div>'))).toBe('ab Cd');
    // Mathematical bold letters take two UTF-16 units each.
    expect(blockText(body('<div><span>\u{1d41a}\u{1d41b}</span><span>Cd</span></div>'))).toBe('\u{1d41a}\u{1d41b} Cd');
    expect(blockText(body('<p>x<span>\u{1d41a}</span><span>Cd</span></p><p>A<span>Bc</span></p>'))).toBe(
      'x\u{1d41a} Cd\n\nABc',
    );
    // After a picture: the word before it ended in a one-letter element.
    expect(blockText(body('<p><span>2</span>4<img src="a.png">If</p>'))).toBe('24 If');
  });

  it('sets apart the words on either side of a picture, but not in Chinese, in code, or beside a space', () => {
    expect(blockText(body('<p>Updated: December 9, 2024<img src="a.png" alt="">If you are serving food</p>'))).toBe(
      'Updated: December 9, 2024 If you are serving food',
    );
    expect(blockText(body('<p>1<img src="det.svg">DET <svg><path/></svg>Pistons</p>'))).toBe('1 DET Pistons');
    expect(
      blockText(
        body('<p>北京<img src="a.png">天气</p><p><code>a<img src="b.png">b</code></p><p>x <img src="c.png"> y</p>'),
      ),
    ).toBe('北京天气\n\nab\n\nx y');
  });

  it('runs on a drop cap, a word split in lower case, text after a text node, and code', () => {
    expect(blockText(body('<p><strong><span>I</span></strong><span>f you are here</span></p>'))).toBe(
      'If you are here',
    );
    expect(blockText(body('<p><em>multi</em><em>media</em> and <b>Bold</b>Text</p>'))).toBe('multimedia and BoldText');
    expect(blockText(body('<p><code><span>getElement</span><span>ById</span></code></p>'))).toBe('getElementById');
  });
});

describe('leadLine', () => {
  it('gives the first line with words, on one line and cut at a word', () => {
    expect(leadLine('\n  \n\tFirst  words\there\nSecond', 80)).toBe('First words here');
    expect(leadLine('Herons wade in the shallow water', 20)).toBe('Herons wade in the…');
    expect(leadLine('only', 80)).toBe('only');
    expect(leadLine(' \n\n ', 80)).toBe('');
  });
});
