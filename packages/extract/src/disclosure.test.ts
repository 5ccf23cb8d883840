import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { revealHiddenPage, revealPanels } from './disclosure.js';
import { parseDocument } from './dom.js';
import { extractHtml } from './extract-html.js';

const body = (html: string): Element =>
  parseDocument(`<html><body>${html}</body></html>`, 'https://example.com/', 'linkedom').document.body;

describe('revealPanels', () => {
  it("shows an accordion's closed panels and a tab set's other tabs", () => {
    const root = body(
      '<h3><button aria-expanded="false" aria-controls="a1">Is it safe?</button></h3>' +
        '<div id="a1" aria-hidden="true">Yes.</div>' +
        '<h3><button aria-expanded="false" aria-controls="a2">Is it fast?</button></h3>' +
        '<div id="a2" hidden>Very.</div>' +
        '<div role="tablist"><button role="tab" aria-controls="t1">Specs</button></div>' +
        '<div id="t1" role="tabpanel" style="color: red; display: none">Weight 2 kg</div>' +
        '<div role="tabpanel" style="visibility:hidden !important">Warranty 2 years</div>',
    );
    expect(revealPanels(Array.from(root.querySelectorAll('*')))).toBe(4);
    for (const el of Array.from(root.querySelectorAll('div[id], [role="tabpanel"]'))) {
      expect(el.hasAttribute('hidden')).toBe(false);
      expect(el.getAttribute('aria-hidden')).toBeNull();
      expect(el.getAttribute('style') ?? '').not.toMatch(/none|hidden/);
    }
    expect(root.querySelector('#t1')?.getAttribute('style')).toBe('color: red');
  });

  it("shows a FAQ's hidden answers that follow their questions without ARIA, not a menu's or a short note", () => {
    const answer = 'Pet insurance reimburses part or all of the vet bills of your pet’s treatment.';
    const root = body(
      `<div class="faq"><div class="q">What is pet insurance?</div><div class="a" style="visibility:hidden">${answer}</div></div>` +
        `<div class="faq"><div class="q"><a href="#q2">Does it cover accidents?</a></div><div class="a" hidden>${answer}</div></div>` +
        `<div><a href="/contact">Need help?</a></div><div class="menu" style="display:none">${answer}</div>` +
        '<div>Was this helpful?</div><div style="display:none">Thanks!</div>' +
        `<div>Coverage</div><div style="display:none">${answer}</div>`,
    );
    expect(revealPanels(Array.from(root.querySelectorAll('*')))).toBe(2);
    for (const a of Array.from(root.querySelectorAll('.a'))) {
      expect(a.hasAttribute('hidden')).toBe(false);
      expect(a.getAttribute('style') ?? '').not.toMatch(/hidden|none/);
    }
    expect(root.querySelector('.menu')?.getAttribute('style')).toBe('display:none');
    expect(root.querySelectorAll('[style="display:none"]').length).toBe(3);
  });

  it('shows the panes of tab sets built without ARIA: by their classes, or named by a Bootstrap toggle', () => {
    const root = body(
      // A shop's tabs: `div`s, the panes side by side in their box, all but the first sent hidden.
      '<div class="tab-navs"><div data-nav="Overview">Overview</div><div data-nav="Specs">Specs</div></div>' +
        '<div class="tab-panes"><div class="tab-pane" style="display:block">Fast card</div>' +
        '<div class="tab-pane" style="display:none">Boost clock 2550 MHz</div></div>' +
        // Bootstrap's own: a `.tab-content` box, and a collapsed panel its toggle names.
        '<div class="tab-content"><div class="tab-pane fade" id="warranty" style="display: none">Three years</div></div>' +
        '<a data-bs-toggle="collapse" href="#faq-2">Is it loud?</a><div id="faq-2" class="collapse" hidden>Quiet under load.</div>' +
        // One `tab-pane` alone, outside a tab set, and a toggle in the navigation: left hidden.
        '<div><div class="tab-pane" hidden>Draft</div></div>' +
        '<nav><a data-toggle="collapse" data-target="#menu">Menu</a></nav><div id="menu" hidden>Home</div>',
    );
    expect(revealPanels(Array.from(root.querySelectorAll('*')))).toBe(3);
    expect(root.textContent).toContain('Boost clock');
    expect(root.querySelectorAll('[style*="none"]')).toHaveLength(0);
    expect(Array.from(root.querySelectorAll('[hidden]')).map((el) => el.textContent)).toEqual(['Draft', 'Home']);
  });

  it('leaves menus, popups, dialogs and other hidden blocks hidden', () => {
    const root = body(
      '<nav><button aria-expanded="false" aria-controls="m1">Products</button></nav>' +
        '<div id="m1" hidden>Menu</div>' +
        '<button aria-haspopup="true" aria-controls="m2">Account</button><div id="m2" hidden>Sign out</div>' +
        '<button aria-controls="d1">Subscribe</button><div id="d1" role="dialog" hidden>Your email</div>' +
        '<button aria-controls="d2">Share</button><dialog id="d2" style="display:none">Copy link</dialog>' +
        '<div id="plain" hidden>Variant data</div>',
    );
    expect(revealPanels(Array.from(root.querySelectorAll('*')))).toBe(0);
    expect(root.querySelectorAll('[hidden], [style]')).toHaveLength(5);
  });

  it('puts the answers of a FAQ page in its main text', () => {
    const faq = Array.from(
      { length: 6 },
      (_, i) =>
        `<div class="faq-item"><h3><button aria-expanded="false" aria-controls="faq-${i}">` +
        `Question number ${i} about the plan?</button></h3><div id="faq-${i}" class="faq-answer" aria-hidden="true">` +
        `<p>Answer ${i}: the plan covers repairs, parts and labour for two full years after delivery.</p></div></div>`,
    ).join('');
    const html =
      '<html><head><title>Coverage FAQ</title></head><body><header><a href="/">Home</a></header><main>' +
      `<h1>Coverage FAQ</h1><p>Everything about the coverage plan, answered.</p>${faq}</main></body></html>`;
    const { body_text } = extractHtml(html, { url: 'https://example.com/faq' });
    for (let i = 0; i < 6; i++) {
      // Each question (a button in its heading) stands before its answer.
      expect(body_text).toContain(`Question number ${i} about the plan?\n\nAnswer ${i}: the plan covers repairs`);
    }
  });

  it("keeps a FAQ's questions written as buttons, not the page's other buttons", () => {
    const answer = 'The fee is paid in full by the mover, and nothing is charged to you at any time.';
    const root = body(
      '<h3><button aria-expanded="false">Is there a fee?</button></h3>' +
        `<div><button aria-controls="p1">Who pays the fee？ </button><div id="p1" hidden>${answer}</div></div>` +
        `<div class="faq"><button class="label"><img alt="Expand"><div>Can I cancel?</div></button><div style="height:0">${answer}</div></div>` +
        `<div><button aria-controls="p2">Item details</button><div id="p2">${answer}</div></div>` +
        '<div><button>Was this helpful?</button><div>Yes</div></div>' +
        `<nav><button aria-controls="p3">Need help?</button><div id="p3">${answer}</div></nav>` +
        `<h3><button>${'Why '.repeat(60)}?</button></h3>`,
    );
    revealPanels(Array.from(root.querySelectorAll('*')));
    expect(Array.from(root.querySelectorAll('span'), (span) => span.textContent?.trim())).toEqual([
      'Is there a fee?',
      'Who pays the fee？',
      'Can I cancel?',
    ]);
    expect(Array.from(root.querySelectorAll('button'), (b) => b.textContent?.trim().slice(0, 12))).toEqual([
      'Item details',
      'Was this hel',
      'Need help?',
      'Why Why Why ',
    ]);
  });
});

const WCXB = join(import.meta.dirname, '../../../../shared/testdata/wcxb-dev/dev');
const wcxbPresent = existsSync(WCXB);
if (!wcxbPresent) console.warn(`wcxb FAQ test skipped: ${WCXB} is absent`);

(wcxbPresent ? describe : describe.skip)('the FAQ of a real page', () => {
  it('keeps its questions, each before its answer (WCXB 0054, an accordion of buttons without ARIA)', () => {
    const html = gunzipSync(readFileSync(join(WCXB, 'html/0054.html.gz'))).toString('utf8');
    const { ground_truth } = JSON.parse(readFileSync(join(WCXB, 'ground-truth/0054.json'), 'utf8'));
    const questions = (ground_truth.main_content as string)
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.endsWith('?'));
    expect(questions.length).toBeGreaterThanOrEqual(5);
    const { body_text } = extractHtml(html, { url: 'https://www.move.org/best-interstate-moving-companies/' });
    const lines = body_text.split('\n').map((line) => line.trim());
    for (const question of questions) expect(lines).toContain(question);
    expect(body_text).toContain(
      'What is the best moving company for long distances?\n\nThe best long-distance moving company Allied Van Lines',
    );
  });
});

describe('revealHiddenPage', () => {
  const paragraphs = Array.from(
    { length: 8 },
    (_, i) =>
      `<p>Paragraph ${i} of the tutorial explains how a model learns from data, step by step, with examples.</p>`,
  ).join('');

  it('shows a page its anti-flash wrapper hides until scripts run, not a hidden menu', () => {
    const root = body(
      `<div id="__next"><div style="visibility:hidden;min-height:100vh"><nav style="display:none"><a href="/a">A</a></nav>` +
        `<article><h1>Machine learning</h1>${paragraphs}</article></div></div>`,
    );
    expect(revealHiddenPage(root, Array.from(root.querySelectorAll('*')))).toBe(1);
    expect(root.querySelector('#__next > div')?.getAttribute('style')).toMatch(/^;?min-height:100vh$/);
    expect(root.querySelector('nav')?.getAttribute('style')).toBe('display:none');
  });

  it('shows a body hidden by its own style, and a page behind an open dialog', () => {
    const doc = parseDocument(
      `<html><body style="display:none"><div aria-hidden="true"><article>${paragraphs}</article></div>` +
        '<div role="dialog">Accept cookies?</div></body></html>',
      'https://example.com/',
      'linkedom',
    ).document;
    expect(revealHiddenPage(doc.body, Array.from(doc.body.querySelectorAll('*')))).toBe(2);
    expect(doc.body.getAttribute('style')).toBe('');
    expect(doc.body.querySelector('[aria-hidden]')).toBeNull();
  });

  it("puts a declared article's text in its main text when a wrapper hides the whole page", () => {
    const html =
      '<html><head><title>Machine Learning Tutorial</title><meta property="og:type" content="article"></head>' +
      `<body><div id="__next"><div style="visibility:hidden;background-color:#ffffff"><header><a href="/">Home</a></header>` +
      `<div class="article"><h1>Machine Learning Tutorial</h1>${paragraphs}</div></div></div>` +
      '<footer><p>Company: About us, Careers, Contact, Advertise with us, Privacy policy, Terms.</p></footer></body></html>';
    const { body_text } = extractHtml(html, { url: 'https://example.com/ml/' });
    for (let i = 0; i < 8; i++) expect(body_text).toContain(`Paragraph ${i} of the tutorial`);
  });
});
