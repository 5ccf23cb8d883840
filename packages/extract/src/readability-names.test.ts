import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { extractHtml } from './extract-html.js';
import {
  dropTextAnchorBylines,
  hasTextAnchorId,
  keepScriptShownBlocks,
  keepSubheadings,
  markNavboxes,
} from './readability-names.js';

const body = (html: string): Element =>
  (parseHTML(`<html><body>${html}</body></html>`).document as unknown as Document).body;

describe('keepSubheadings', () => {
  it("drops the class names and id Readability reads as unlikely from a section heading's, and only those", () => {
    const root = body('<h4 class="et_pb_module_header card" id="menu-title">Fine-tuning</h4>');
    expect(keepSubheadings(Array.from(root.querySelectorAll('*')))).toBe(1);
    const kept = root.querySelector('h4') as Element;
    expect(kept.getAttribute('class')).toBe('card');
    expect(kept.hasAttribute('id')).toBe(false);
  });

  it('leaves the page title, boxes and headings with likely names alone', () => {
    const root = body(
      '<h1 class="entry-header">Title</h1><div class="sidebar"><h3 class="widget-title">Recent</h3></div>' +
        '<h2 class="section-header-content">Kept as it is</h2>',
    );
    expect(keepSubheadings(Array.from(root.querySelectorAll('*')))).toBe(0);
    expect(root.querySelector('h1')?.getAttribute('class')).toBe('entry-header');
    expect(root.querySelector('div')?.getAttribute('class')).toBe('sidebar');
    expect(root.querySelector('h2')?.getAttribute('class')).toBe('section-header-content');
  });
});

describe('section headings named like page chrome', () => {
  // A page builder's service cards (Divi's blurb module): each card's title is an <h4> whose class
  // names its place, `et_pb_module_header`, and `header` is a name Readability removes unread.
  const services = [
    ['Custom AI Solution Development', 'we develop custom solutions using language processing and vision'],
    ['AI Consulting', 'we identify the best strategy for your business and create a roadmap for it'],
    ['Fine-tuning Models', 'we examine current models and refine them with hyperparameter tuning and feature work'],
  ];
  const card = ([title, text]: string[]): string =>
    `<div class="et_pb_blurb"><div class="et_pb_blurb_container"><h4 class="et_pb_module_header"><span>${title}</span></h4>` +
    `<div class="et_pb_blurb_description"><p>Whether you start small or large, ${text}. ` +
    'Our engineers work with your team from the first workshop to the release and after it, and report every week.</p></div></div></div>';
  const html =
    '<html><head><title>AI Development Company</title></head><body><header class="site-header"><nav><a href="/">Home</a></nav></header>' +
    `<div id="main-content"><h1>AI Development Company</h1><h2>Our AI Development Services</h2>${services.map(card).join('')}</div>` +
    '</body></html>';

  it("keeps each card's heading in the text and the markdown", () => {
    const page = extractHtml(html, { url: 'https://example.com/ai-development/' });
    for (const [title, text] of services) {
      expect(page.body_text).toContain(`${title}\n`);
      expect(page.body_text).toContain(text);
      expect(page.body_markdown).toContain(`#### ${title}`);
    }
  });
});

describe('MediaWiki navigation boxes', () => {
  // A wiki article as MediaWiki drew it before 2022: its navbox a table with header cells (the
  // box's title, each group's name) and no role, nesting the table of each group.
  const group = (name: string, pages: string[]): string =>
    `<tr><th scope="row" class="navbox-group">${name}</th><td class="navbox-list navbox-odd"><div><ul>` +
    pages.map((p) => `<li><a href="/wiki/${encodeURIComponent(p)}">${p}</a></li>`).join('') +
    '</ul></div></td></tr>';
  const navbox =
    '<table cellspacing="0" class="navbox" style="border-spacing:0"><tbody><tr><td style="padding:2px">' +
    '<table cellspacing="0" class="nowraplinks collapsible autocollapse navbox-inner"><tbody>' +
    '<tr><th scope="col" class="navbox-title" colspan="2"><div class="plainlinks hlist navbar mini"><ul>' +
    '<li><a href="/wiki/Template:RM">view</a></li><li><a href="/wiki/Template_talk:RM">talk</a></li></ul></div>' +
    '<div>Running Man</div></th></tr>' +
    group('Spin-offs', ['Running Man Vietnam', 'Keep Running', 'Running Man Animation', 'Running Man Heroes']) +
    group('Cast', [
      'Yoo Jae-suk',
      'Ji Suk-jin',
      'Kim Jong-kook',
      'Haha',
      'Song Ji-hyo',
      'Jeon So-min',
      'Yang Se-chan',
    ]) +
    group('Former cast', ['Gary', 'Lee Kwang-soo', 'Song Joong-ki', 'Lizzy']) +
    '</tbody></table></td></tr></tbody></table>';
  const paragraph = (n: number): string =>
    `<p>Kim Jong-kook began his career in 1995 as one half of the duo Turbo, and his solo albums of the years ` +
    `that followed sold well enough to make him one of the best known singers of his generation (part ${n}).</p>`;
  const page =
    '<html><head><title>Kim Jong-kook - Wikipedia</title></head><body><div id="content" class="mw-body">' +
    '<h1 id="firstHeading">Kim Jong-kook</h1><div id="bodyContent"><div class="mw-parser-output">' +
    [1, 2, 3, 4, 5, 6].map(paragraph).join('') +
    '<h2>Discography</h2><table class="wikitable"><tbody><tr><th>Year</th><th>Album</th></tr>' +
    '<tr><td>2001</td><td>Renaissance</td></tr><tr><td>2004</td><td>Evolution</td></tr>' +
    '<tr><td>2005</td><td>This Is Me</td></tr></tbody></table>' +
    navbox +
    '</div></div></div></body></html>';

  it('marks a box classed navbox as navigation, and leaves a box with a role of its own', () => {
    const root = body(`${navbox}<div class="navbox" role="presentation">x</div><div class="navbox-styles">y</div>`);
    expect(markNavboxes(Array.from(root.querySelectorAll('*')))).toBe(1);
    expect(root.querySelector('table')?.getAttribute('role')).toBe('navigation');
    expect(root.querySelector('div[role="presentation"]')).not.toBeNull();
    expect(root.querySelector('.navbox-styles')?.hasAttribute('role')).toBe(false);
  });

  it("leaves a wiki article's navbox out of its text, and keeps the article's own table", () => {
    const { body_text: text, body_markdown: markdown } = extractHtml(page, { url: 'https://wiki.example/wiki/Kim' });
    expect(text).toContain('(part 6)');
    expect(text).toContain('This Is Me');
    for (const out of [text, markdown]) {
      expect(out).not.toContain('Lee Kwang-soo');
      expect(out).not.toContain('Former cast');
    }
  });
});

describe('blocks hidden only without scripts', () => {
  it('drops the class that hides a block where scripts do not run, and only that one', () => {
    const root = body(
      '<div class="no-js-hidden product__price-wrapper">$799</div><div class="hidden-nojs">a</div>' +
        '<div class="js-hidden">b</div><div class="hidden">c</div>',
    );
    expect(keepScriptShownBlocks(Array.from(root.querySelectorAll('*')))).toBe(2);
    expect(Array.from(root.children).map((el) => el.getAttribute('class'))).toEqual([
      'product__price-wrapper',
      '',
      'js-hidden',
      'hidden',
    ]);
  });

  it("keeps a shop's price that Shopify's theme marks no-js-hidden, which Readability cleaned away", () => {
    const description = `<p>${'The LCD-2 Classic drivers give a warm and energetic sound for long listening at home. '.repeat(6)}</p>`;
    const html =
      '<html><head><title>LCD-2 Classic</title></head><body><main><h1>Audeze LCD-2 Classic</h1>' +
      '<div class="no-js-hidden" role="status"><div class="price price--large"><span class="price-item">$799</span></div></div>' +
      `${description}${description}</main></body></html>`;
    expect(extractHtml(html, { url: 'https://shop.example.com/products/lcd-2' }).body_text).toContain('$799');
  });
});

describe('ids made from their own text', () => {
  it('are not bylines: a heading anchored by its words, an option anchored by a path', () => {
    const root = body(
      '<h2 id="authoring-applications">Authoring applications</h2>' +
        '<dt id="Documentation/git-commit.txt---reset-author">--reset-author</dt>' +
        '<div id="author">Jane Doe</div><span id="author-jane-doe">Jane Doe</span><h3 class="author" id="by-the-author">By the author</h3>',
    );
    const elements = Array.from(root.querySelectorAll('*'));
    expect(elements.map(hasTextAnchorId)).toEqual([true, true, false, false, true]);
    // The class still names the last one a byline, so its id stays.
    expect(dropTextAnchorBylines(elements)).toBe(2);
    expect(elements.map((el) => el.getAttribute('id'))).toEqual([
      null,
      null,
      'author',
      'author-jane-doe',
      'by-the-author',
    ]);
  });

  it("keep a documentation page's heading in its text and out of its author", () => {
    const para = (i: number) =>
      `<p>Paragraph ${i} explains how the runtime schedules tasks across worker threads, with enough words to count as prose.</p>`;
    const html =
      `<html lang="en"><head><title>tokio - Rust</title></head><body><main><h1>Crate tokio</h1>${para(1)}${para(2)}` +
      `<h2 id="authoring-applications"><a href="#authoring-applications">Authoring applications</a></h2>${para(3)}${para(4)}` +
      `<dl><dt id="Documentation/git-commit.txt---reset-author">--reset-author</dt><dd>${para(5)}</dd></dl></main></body></html>`;
    const page = extractHtml(html, { url: 'https://docs.example.org/tokio/' });
    expect(page.author).toBeNull();
    expect(page.body_text).toContain('Authoring applications');
    expect(page.body_text).toContain('--reset-author');
  });
});
