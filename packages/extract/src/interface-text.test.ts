import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { extractHtml } from './extract-html.js';
import { dropConsentPrompts, dropInterfaceText, dropSignInPrompts, dropTemplateExpressions } from './interface-text.js';
import { squash } from './text.js';

/** The body's text, each element's text on its own line, after dropInterfaceText. */
function kept(html: string): string[] {
  const body = (parseHTML(`<html><body>${html}</body></html>`).document as unknown as Document).body;
  dropInterfaceText(Array.from(body.querySelectorAll('*')));
  return Array.from(body.children).map((el) => (el.textContent ?? '').trim());
}

describe('dropInterfaceText', () => {
  it('removes skip links and skip buttons, in English and the common theme languages', () => {
    expect(
      kept(
        '<a class="skip-link" href="#content">Skip to content</a><a href="#recipe">Jump to Recipe</a>' +
          '<button>Skip to search results</button><a href="#main">Zum Inhalt springen</a>' +
          '<a href="#main">Aller au contenu</a><p>Text.</p>',
      ),
    ).toEqual(['Text.']);
  });

  it('keeps a skip link that is a part of a sentence, one to another page, and a long in-page link', () => {
    const long = `Skip ${'the long introduction and read the part about the findings '.repeat(2)}`;
    expect(
      kept(
        '<p>You can <a href="#end">jump to the end of the list</a> to see the list.</p>' +
          `<a href="/next">Skip to the next chapter</a><a href="#findings">${long}</a>`,
      ),
    ).toEqual(['You can jump to the end of the list to see the list.', 'Skip to the next chapter', long.trim()]);
  });

  it("removes a loading indicator's words, keeps headings, table cells and prose that start with Loading", () => {
    expect(
      kept(
        '<div class="wt-spinner">Loading</div><div>Loading paragraph...</div><ul><li>LOADING…</li></ul>' +
          '<p>Cargando...</p><h2>Loading</h2><table><tr><td>Loading</td></tr></table>' +
          '<p><b>Loading</b> speed: slower than the others.</p><p>Loading Speed</p><p>Loading the dishwasher.</p>',
      ),
    ).toEqual([
      '', // the list, without its one item
      'Loading',
      'Loading',
      'Loading speed: slower than the others.',
      'Loading Speed',
      'Loading the dishwasher.',
    ]);
  });

  it("removes an advertisement's label, in English and the common languages, and the line that says the text goes on", () => {
    expect(
      kept(
        '<div class="ad-disclaimer">Advertisement - Continue Reading Below</div><p>Text.</p>' +
          '<div class="aside-breaker"><span>Article Continues Below</span></div>' +
          '<p><span style="color: grey">Sponsored</span></p><div>ADVERTISEMENT</div><div>Story continues below\n  advertisement</div>' +
          '<span role="button" aria-label="Leave feedback on Sponsored ad">Sponsored<b class="sprite"></b></span>' +
          '<a href="/ads">Anzeige</a><div>广告</div><div>Publicité</div>',
      ),
    ).toEqual(['Text.', '', '']); // the breaker's div and the paragraph, without the label they held
  });

  it('keeps the words in a sentence, a table, a list and a longer line, and a sponsor named', () => {
    expect(
      kept(
        '<p>Advertisement <a href="/rates">rates</a> rise in spring.</p><p>Advertisement is how the site pays.</p>' +
          '<table><tr><td>Advertisement</td><td>$40</td></tr></table><ul><li>Sponsored</li><li>Organic</li></ul>' +
          '<div>Sponsored by Wind River</div><p>The story continues below the fold of the front page.</p>',
      ),
    ).toEqual([
      'Advertisement rates rise in spring.',
      'Advertisement is how the site pays.',
      'Advertisement$40',
      'SponsoredOrganic',
      'Sponsored by Wind River',
      'The story continues below the fold of the front page.',
    ]);
  });

  it("removes an empty list's message, keeps one in a table or a list and a sentence that starts so", () => {
    expect(
      kept(
        '<div class="portable-archive-list"><div class="empty">No posts</div></div><h3>No Reviews Yet</h3>' +
          '<p>No results found.</p><span>Be the first to comment</span><p>Text.</p>' +
          '<table><tr><td>Query</td><td>No results</td></tr></table><ul><li>No comments</li></ul>' +
          '<p>No comments yet from the council, whose members meet on Monday.</p>',
      ),
    ).toEqual([
      '', // the archive's list, without its message
      'Text.',
      'QueryNo results',
      'No comments',
      'No comments yet from the council, whose members meet on Monday.',
    ]);
  });

  it("removes a date's copy for machines, keeps one in a table, in code or in a sentence", () => {
    expect(
      kept(
        '<p><span>Aug 08, 2006</span><time class="hide" datetime="2006-08-08T22:13+00:00">2006-08-08T22:13+00:00</time></p>' +
          '<span class="updated rich-snippet-hidden">2025-10-30T10:45:07-04:00</span><div>2024-01-02T03:04:05.123Z</div>' +
          '<table><tr><td>2025-10-30T10:45:07Z</td></tr></table><pre><code>2025-10-30T10:45:07Z</code></pre>' +
          '<p>The feed writes 2025-10-30T10:45:07Z.</p><p>2025-10-30</p>',
      ),
    ).toEqual([
      'Aug 08, 2006',
      '2025-10-30T10:45:07Z',
      '2025-10-30T10:45:07Z',
      'The feed writes 2025-10-30T10:45:07Z.',
      '2025-10-30',
    ]);
  });

  it("removes a <time>'s short form beside its long one, and nothing from a <time> without both", () => {
    expect(
      kept(
        '<time datetime="2024-04-02T05:03:15Z" data-short="1 yr"><span class="ipsTime__long">April 2, 2024</span><span class="ipsTime__short">1 yr</span></time>' +
          '<time datetime="2024-04-02" data-short="1 yr">1 yr</time><time datetime="2024-04-02"><span>April 2, 2024</span><span>1 yr</span></time>' +
          '<time datetime="2024-04-02" data-short="1 yr"><span class="ipsTime__long">1 yr</span><span class="ipsTime__short">1 yr</span></time>',
      ),
    ).toEqual(['April 2, 2024', '1 yr', 'April 2, 20241 yr', '1 yr']);
  });

  it("removes a form control's label, and keeps a choice's, a long one and one that names no control", () => {
    expect(
      kept(
        '<label for="sort">Sorted by:</label><select id="sort"><option>Highest score</option></select>' +
          '<label for="email">Email address</label><input id="email" type="email">' +
          '<label>Your message <textarea></textarea></label><p>Text.</p>',
      ),
    ).toEqual(['Highest score', '', 'Text.']);
    expect(
      kept(
        '<label for="c1">Walnut brown</label><input id="c1" type="radio" name="colour">' +
          '<label><input type="checkbox"> Machine learning</label>' +
          `<label for="terms">${'I have read the terms of service and agree to them, '.repeat(2)}</label><input id="terms">` +
          '<label for="nothing">Orphan label</label><label>Plain label</label>',
      ),
    ).toEqual([
      'Walnut brown',
      '',
      'Machine learning',
      'I have read the terms of service and agree to them, I have read the terms of service and agree to them,',
      '',
      'Orphan label',
      'Plain label',
    ]);
  });

  it('removes the links and buttons a hiding class hides, and keeps those shown from some width on', () => {
    expect(
      kept(
        '<a class="js-sort s-link d-none" href="?tab=score">Reset to default</a>' +
          '<button class="more hidden">Show less</button><a class="is-hidden" href="#x">Undo</a>' +
          '<a class="hidden md:block" href="/docs">Documentation</a><a class="d-none d-lg-inline" href="/api">API</a>' +
          '<a class="hider" href="/h">Hider</a><a class="nav-hidden-toggle" href="/t">Toggle</a><p class="hidden">Text.</p>' +
          '<a class="hide" href="/t/1"><h1>Choosing new fish</h1></a>',
      ),
    ).toEqual(['Documentation', 'API', 'Hider', 'Toggle', 'Text.', 'Choosing new fish']);
  });

  it("reads a parent's own words once for all the skip links it holds", () => {
    const body = (parseHTML('<html><body></body></html>').document as unknown as Document).body;
    body.innerHTML = `${'<a href="#main">Skip to content</a><p>Text.</p>'.repeat(50)}`;
    let proto = Object.getPrototypeOf(body);
    while (proto !== null && !Object.getOwnPropertyDescriptor(proto, 'firstChild'))
      proto = Object.getPrototypeOf(proto);
    const firstChild = Object.getOwnPropertyDescriptor(proto, 'firstChild');
    expect(firstChild?.get).toBeDefined();
    let reads = 0;
    // Counted on the body alone: each skip link asks whether its parent has words of its own.
    Object.defineProperty(body, 'firstChild', {
      get() {
        reads++;
        return firstChild?.get?.call(body) as ChildNode | null;
      },
    });
    dropInterfaceText(Array.from(body.querySelectorAll('*')));
    expect(body.querySelectorAll('a')).toHaveLength(0);
    expect(body.querySelectorAll('p')).toHaveLength(50);
    expect(reads).toBeLessThanOrEqual(1);
  });

  it('leaves the words out of the extracted text of a page', () => {
    const paragraph = 'The river floods every spring, and the town has learnt to live with it. '.repeat(6);
    const page = extractHtml(
      `<html><head><title>Floods</title></head><body><a class="skip" href="#main">Skip to main content</a>` +
        `<main id="main"><article><h1>Floods</h1><p>${paragraph}</p><div>Loading comments...</div>` +
        `<div class="ad-slot"><p>Advertisement - Continue Reading Below</p></div><p>${paragraph}</p></article></main></body></html>`,
      { url: 'https://example.com/floods' },
    );
    expect(page.body_text).toContain('The river floods every spring');
    expect(page.body_text).not.toMatch(/Skip to main content|Loading comments|Advertisement|Continue Reading/);
  });
});

describe('dropSignInPrompts', () => {
  /** The main text's lines after dropSignInPrompts, and how many it removed. */
  function prompted(html: string): [string[], number] {
    const body = (parseHTML(`<html><body><div id="root">${html}</div></body></html>`).document as unknown as Document)
      .body;
    const root = body.firstElementChild as Element;
    const removed = dropSignInPrompts(root);
    return [Array.from(root.children).map((el) => squash(el.textContent)), removed];
  }

  it('removes a prompt to sign in, its sign-in words plain or a link, and the box left empty', () => {
    expect(
      prompted(
        '<p>The answer is to restart the service.</p>' +
          '<h2 class="bottom-notice">You must <a href="/users/login">log in</a> to answer this question.</h2>' +
          '<div class="exif"><a href="/register"><i>Join</i></a> to see EXIF info for this image (if available)</div>' +
          '<div><h4>Create an account or sign in to comment</h4><p>You need to be a member in order to leave a comment</p></div>' +
          '<p>Please create an account or <a href="/login">log in</a> to access all these features</p>',
      ),
    ).toEqual([['The answer is to restart the service.', ''], 5]);
  });

  it("keeps a sentence on registering to vote, a longer sentence, a list's item, a table's cell and a button", () => {
    const html =
      '<p>You must register to vote by October 7.</p><p>Sign up to read the report, the council said, before it votes ' +
      'on the budget next week and the week after.</p><ul><li>Log in to see your orders</li></ul>' +
      '<table><tr><td>Sign in to continue</td></tr></table><button>Sign in</button><p>Join the club.</p>';
    expect(prompted(html)[1]).toBe(0);
  });

  it("removes them from a tree outside any document, as Readability's article is", () => {
    const { document } = parseHTML('<html><body></body></html>');
    const root = (document as unknown as Document).createElement('div');
    root.innerHTML =
      '<article><p>The answer is to restart the service.</p>' +
      '<p>You must <a href="/users/login">log in</a> to answer this question.</p></article>';
    expect(root.isConnected).toBe(false);
    expect(dropSignInPrompts(root)).toBe(1);
    expect(squash(root.textContent)).toBe('The answer is to restart the service.');
  });

  it('leaves a main text without sign-in words as it is', () => {
    expect(prompted('<p>You must see the river to understand the town.</p>')).toEqual([
      ['You must see the river to understand the town.'],
      0,
    ]);
  });
});

describe('dropTemplateExpressions', () => {
  it("removes a template's unfilled expressions, keeps them in code and in a sentence", () => {
    const root = (
      parseHTML('<html><body><div id="c"></div></body></html>').document as unknown as Document
    ).createElement('div');
    root.innerHTML =
      '<div class="error">{{ DiscussionBoard.errors[11793116].message }}</div><p>{{hire-ai-eng="/case-banners/hire"}} {{ b }}</p>' +
      '<pre><code>{{ person }}</code></pre><p>Write <code>{{ name }}</code> where the name goes.</p>' +
      '<p>Hello {{ person }}!</p><p>{{ a }} and more</p><p>{ single }</p>';
    // A detached element, as Readability's content is.
    expect(dropTemplateExpressions(root)).toBe(2);
    expect(Array.from(root.children).map((el) => (el.textContent ?? '').trim())).toEqual([
      '{{ person }}',
      'Write {{ name }} where the name goes.',
      'Hello {{ person }}!',
      '{{ a }} and more',
      '{ single }',
    ]);
  });

  it("leaves a forum thread's replies in its text and their unfilled error messages out", () => {
    const reply = (n: number) =>
      `<li class="post"><div class="message">Reply ${n}: the landing pages work, but the traffic costs more than it used to, and the networks suspend accounts without a reason.</div>` +
      `<div class="alert" ng-show="errors[${n}]"><strong>{{ DiscussionBoard.errors[${n}].message }}</strong></div></li>`;
    const html =
      '<html><head><title>Is affiliate marketing still worth it?</title></head><body><main><h1>Is affiliate marketing still worth it?</h1><ul class="thread">' +
      Array.from({ length: 6 }, (_, i) => reply(i + 1)).join('') +
      '</ul></main></body></html>';
    const page = extractHtml(html, { url: 'https://forum.example.com/t/1' });
    expect(page.body_text).toContain('Reply 1: the landing pages work');
    expect(page.body_text).toContain('Reply 6: the landing pages work');
    expect(page.body_text).not.toContain('{{');
  });
});

describe('dropConsentPrompts', () => {
  const prompt =
    'We use cookies on our website to give you the most relevant experience. Accept or reject them in the settings.';

  it("removes a cookie prompt's box, named by consent plugins' words, and what it holds", () => {
    const body = (
      parseHTML(
        `<html><body><p>${'The text of the page, which is longer than its prompts. '.repeat(12)}</p>` +
          `<div id="cookie-law-info-bar"><span>${prompt}</span><a role="button">Accept</a></div>` +
          `<aside class="moove-gdpr-info-bar-hidden"><p>${prompt}</p></aside>` +
          `<div id="CybotCookiebotDialog"><h2>Diese Webseite verwendet Cookies</h2></div>` +
          `<div class="cmp-consent-banner"><p>Ce site utilise des cookies.</p></div></body></html>`,
      ).document as unknown as Document
    ).body;
    expect(dropConsentPrompts(Array.from(body.querySelectorAll('*')))).toBe(4);
    expect((body.textContent ?? '').trim()).toMatch(/^The text of the page[\s\S]*prompts\.$/);
    expect(body.textContent).not.toMatch(/cookie/i);
  });

  it('keeps a recipe named for its cookies, consent that is no cookie prompt, and a long block so named', () => {
    const body = (
      parseHTML(
        '<html><body><div class="cookie-recipe"><p>Bake the cookies for twelve minutes.</p></div>' +
          '<div class="consent-form"><p>I consent to the treatment described above.</p></div>' +
          `<div class="gdpr-guide"><p>${'What the law says about cookies and consent, article by article. '.repeat(120)}</p></div>` +
          '</body></html>',
      ).document as unknown as Document
    ).body;
    expect(dropConsentPrompts(Array.from(body.querySelectorAll('*')))).toBe(0);
    expect(body.querySelectorAll('p')).toHaveLength(3);
  });

  it('reads a box so named up to 2,000 nodes: one holding more is no prompt, and boxes inside it are read', () => {
    const body = (
      parseHTML(
        `<html><body><p>${'The text of the page, which is longer than its prompts. '.repeat(12)}</p>` +
          `<div class="consent-layer">${'<i></i>'.repeat(2_100)}<div class="cookie-notice">We use cookies.</div></div></body></html>`,
      ).document as unknown as Document
    ).body;
    expect(dropConsentPrompts(Array.from(body.querySelectorAll('*')))).toBe(1);
    expect(body.querySelector('.consent-layer')).not.toBeNull();
    expect(body.querySelector('.cookie-notice')).toBeNull();
  });

  it("keeps a cookie policy's own page, whose text is named for it", () => {
    const policy =
      '<div class="cookie-policy"><p>This policy explains how we use cookies and similar technologies on this website.</p>' +
      '<p>You can accept or reject the cookies that are not necessary in your browser settings.</p></div>';
    const body = (
      parseHTML(`<html><body><h1>Cookie policy</h1>${policy}<footer>Contact us</footer></body></html>`)
        .document as unknown as Document
    ).body;
    expect(dropConsentPrompts(Array.from(body.querySelectorAll('*')))).toBe(0);
    expect(body.querySelectorAll('p')).toHaveLength(2);
  });

  it("keeps a section page's teasers as its text, not the cookie prompt Readability would take for it", () => {
    // A news site's section: short teasers, and a consent plugin's settings in the page's HTML, whose
    // paragraphs are the longest prose on the page.
    const teaser = (n: number) =>
      `<article class="teaser"><h3><a href="/economy/${n}">Markets story ${n}</a></h3><p>Short summary of story ${n}.</p><p>Updated an hour ago</p></article>`;
    const settings = Array.from(
      { length: 4 },
      (_, i) =>
        `<p>Cookies of kind ${i} are stored in your browser and perform functions such as recognising you when you return to our website and helping our team to understand which sections of the website you find most interesting and useful.</p>`,
    ).join('');
    const html =
      '<html><head><title>Economy</title></head><body><h1>Economy</h1>' +
      `<section class="feed">${Array.from({ length: 20 }, (_, i) => teaser(i + 1)).join('')}</section>` +
      `<div id="moove_gdpr_cookie_modal" class="gdpr_lightbox-hide"><div class="moove-gdpr-modal-content">${settings}</div></div>` +
      '</body></html>';
    const page = extractHtml(html, { url: 'https://news.example.com/economy/' });
    expect(page.body_text).toContain('Short summary of story 1.');
    expect(page.body_text).toContain('Short summary of story 20.');
    expect(page.body_text).not.toMatch(/cookies/i);
  });
});
