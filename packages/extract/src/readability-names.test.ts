import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { extractHtml } from './extract-html.js';
import { keepSubheadings } from './readability-names.js';

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
