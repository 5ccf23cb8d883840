import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { marked } from 'marked';
import { contentMarkdown } from './markdown.js';
import { linkCardTitles } from './markdown-card-links.js';

const element = (inner: string): Element =>
  parseHTML(`<html><body><div id="c">${inner}</div></body></html>`).document.getElementById('c') as unknown as Element;
const markdown = (inner: string): string => contentMarkdown(element(inner), 'https://shop.example/');

describe('linkCardTitles', () => {
  it("keeps a card's picture, heading and lines, with the link on its heading", () => {
    const md = markdown(
      '<ul><li><a href="/p/1"><img alt="Tan socks" src="/s.jpg"><div><h3>Tan Icon Socks</h3><p>$14</p></div></a></li>' +
        '<li><a href="/p/2"><img alt="Navy socks" src="/n.jpg"><div><h3>Navy Icon Socks</h3><p>$15</p></div></a></li></ul>',
    );
    expect(md).toContain('### [Tan Icon Socks](https://shop.example/p/1)');
    expect(md).toContain('![Tan socks](https://shop.example/s.jpg)');
    // One link a card, on its name: the price is no link, nor is the picture.
    expect(md.match(/\]\(https:\/\/shop\.example\/p\/1\)/g)).toHaveLength(1);
    expect(md).not.toMatch(/\[!\[|\$14\]/);
    // Read back: one list of two items, each holding its heading.
    const [list] = marked.lexer(md).filter((t) => t.type === 'list') as Array<{ items: Array<{ text: string }> }>;
    expect(list?.items.map((item) => item.text)).toEqual([
      expect.stringMatching(/### \[Tan Icon Socks\][\s\S]*\$14/),
      expect.stringMatching(/### \[Navy Icon Socks\][\s\S]*\$15/),
    ]);
  });

  it('puts the link on the heading of the highest rank, and else on the first words and the inline run around them', () => {
    const ranked = markdown(
      '<a href="/p/3"><div><h4>View details</h4></div><div><h2>Plum Dot Socks</h2><span>$10</span></div></a>',
    );
    expect(ranked).toContain('#### View details');
    expect(ranked).toContain('## [Plum Dot Socks](https://shop.example/p/3)');
    const person = markdown(
      '<a href="/team/ada"><div><img alt="" src="/ada.jpg"></div><div><b>Ada</b> Lovelace</div><div>Analyst</div></a>',
    );
    expect(person).toContain('[**Ada** Lovelace](https://shop.example/team/ada)\n\nAnalyst');
    const loose = markdown('<a href="/t">Title text <em>here</em><div>The description.</div></a>');
    expect(loose).toContain('[Title text *here*](https://shop.example/t)\n\nThe description.');
    const picture = markdown('<a href="/g"><div><img alt="Gallery" src="/g.jpg"></div><div> </div></a>');
    expect(picture).toBe('[![Gallery](https://shop.example/g.jpg)](https://shop.example/g)');
  });

  it('leaves links of inline text as they are, and keeps their title', () => {
    const root = element(
      '<p>See <a href="/x" title="X page">this <b>page</b></a> first.</p><a>no target<div>x</div></a>',
    );
    expect(linkCardTitles(root)).toBe(0);
    expect(contentMarkdown(root, 'https://shop.example/')).toContain(
      'See [this **page**](https://shop.example/x "X page") first.',
    );
    const card = element('<a href="/y" title="Y page" class="card"><h3>Y</h3><p>Why</p></a>');
    expect(linkCardTitles(card)).toBe(1);
    expect(Array.from(card.children).map((el) => el.outerHTML.replace(/<a [^>]*>/, '<a>'))).toEqual([
      '<h3><a>Y</a></h3>',
      '<p>Why</p>',
    ]);
    const link = card.querySelector('a');
    expect([link?.getAttribute('href'), link?.getAttribute('title'), link?.hasAttribute('class')]).toEqual([
      '/y',
      'Y page',
      false,
    ]);
  });
});
