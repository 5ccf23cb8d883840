import { describe, expect, it } from '@jest/globals';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import type { DomImpl } from './dom.js';
import { extractHtml } from './extract-html.js';
import { sparePosts } from './spare-posts.js';

/** A phpBB post: the poster's panel, a button, the text, a signature. */
const post = (n: number, user: string, text: string): string =>
  `<div class="post bg${(n % 2) + 1}" id="p${n}"><div class="inner"><dl class="postprofile"><dt><a href="/u/${n}">${user}</a></dt>` +
  `<dd>Senator</dd><dd><strong>Posts:</strong> ${4000 + n}</dd><dd><strong>Joined:</strong> Dec 11, 2021</dd></dl>` +
  `<div class="postbody"><ul class="profile-icons"><li><a href="/posting?mode=quote&p=${n}">Reply with quote</a></li></ul>` +
  `<p class="author">by <a href="/u/${n}">${user}</a> » Tue Aug 27, 2019 1:47 am</p><div class="content">${text}</div>` +
  `<div class="signature">${user} plays in the NationStates football league.</div></div></div></div>`;

/** A first post that lists the pages it is about: a third of its text or more is links. */
const linkList =
  'The 2025-26 season could be one of the greatest seasons in recent history, with minnows at the World Cup.<br><br>' +
  'Major European league standings:<br>' +
  [
    'premierleague.com/tables',
    'bundesliga.com/en/bundesliga/table',
    'ligue1.com/en/competitions/standings',
    'eredivisie.eu/competition/table',
    'spfl.co.uk/league/premiership/table',
    'uefa.com/uefachampionsleague/standings',
    'uefa.com/uefaeuropaleague/standings',
    'uefa.com/uefaconferenceleague/standings',
  ]
    .map((site) => `<a href="https://${site}" class="postlink">https://${site}</a><br>`)
    .join('') +
  'Who will win? Post your predictions for every league below.';

const replies = [
  'The Dutch side will be a fight between Ajax and PSV for the title, as it has been for years now.',
  'Thanks for the suggestion. I added the Dutch fixtures to the first post and the Euro qualifiers too.',
  'My club is trying to get back to the top flight this season, together with three other contenders.',
  'The new Champions League format keeps the big clubs in the competition for longer than before.',
  "A women's futsal world cup at last. The final standings are worth a look for the group stages alone.",
  'Our league changed its format twice in three seasons and nobody knows who is promoted any more.',
].map((reply) => `${reply} ${reply.replace(/\.$/, '')}, which is what everyone in this thread keeps saying.`);

const POSTERS = ['Outer Armatonisdaristan', 'Minoa', 'The BlAAtschApen', 'Ayytaly'];

const page = (first: string, wrapper = (posts: string) => posts): string =>
  '<html><head><title>2025-26 Football Season</title></head><body><h1>2025-26 Football Season</h1>' +
  `<div id="page-body">${wrapper([first, ...replies].map((text, i) => post(i + 1, POSTERS[i % POSTERS.length] as string, text)).join(''))}</div>` +
  '<div id="page-footer"><a href="/faq">FAQ</a> <a href="/team">The team</a></div></body></html>';

describe('sparePosts', () => {
  it.each<DomImpl>(['linkedom', 'jsdom'])("keeps a thread's first post that is a third links (%s)", (dom) => {
    const text = extractHtml(page(linkList), { url: 'https://forum.example/viewtopic.php?t=487157', dom }).body_text;
    expect(text).toContain('one of the greatest seasons in recent history');
    expect(text).toContain('https://bundesliga.com/en/bundesliga/table');
    expect(text).toContain('Who will win?');
    for (const reply of replies) expect(text).toContain(reply);
  });

  it("still removes a post's furniture: a row of links, a footer that is a small part of it", () => {
    const shares =
      '<div class="links"><a href="/s/f">Send to Facebook</a> <a href="/s/t">Send to Twitter</a> <a href="/s/r">Send to Reddit</a> ' +
      '<a href="/s/e">Email this post to a friend</a> <a href="/s/p">Print this page</a></div>';
    const footer =
      '<div class="post-meta"><a href="/u/3">The BlAAtschApen</a>, May 12, 2024 <a href="/ip/3">IP</a> · ' +
      '<a href="/u/9">MargoFarrel</a> likes this.</div>';
    const html = page(linkList, (posts) =>
      posts
        .replace(
          /<div class="content">[^<]*<\/div><div class="signature">Minoa/,
          `<div class="content">Agreed.</div>${shares}<div class="signature">Minoa`,
        )
        .replace(/(<div class="content">[^<]*<\/div>)(<div class="signature">The BlAAtschApen)/, `$1${footer}$2`),
    );
    const text = extractHtml(html, { url: 'https://forum.example/viewtopic.php?t=487157' }).body_text;
    expect(text).toContain(replies[1]);
    expect(text).toContain(replies[2]);
    expect(text).toContain('Agreed.');
    expect(text).toContain('one of the greatest seasons in recent history');
    expect(text).not.toContain('Email this post');
    expect(text).not.toContain('likes this');
  });

  it("spares a block that holds posts from the reader's conditional cleaning, however many links they hold", () => {
    // Invision writes a thread's posts in a moderation <form>; short posts that link what they are
    // about make it a third links or more, and the form went with every post in it.
    const thread = () => {
      const posts = [0, 1, 2]
        .map(
          (n) =>
            `<article data-author="${POSTERS[n]}" id="c${n}"><p>Reply ${n}: agreed, see ` +
            `<a href="/t/${n}">the thread on fixtures</a> and <a href="/t/${n}/l">the league tables</a>.</p></article>`,
        )
        .join('');
      const { document } = parseHTML(
        `<html><body><div id="root"><form action="/topic/1/?do=multimod" method="post">${posts}</form></div></body></html>`,
      );
      return document as unknown as Document;
    };
    const clean = (spared: boolean): string => {
      const doc = thread();
      const reader = new Readability(doc) as unknown as { _cleanConditionally(root: Element, tag: string): void };
      if (spared) sparePosts(reader);
      reader._cleanConditionally(doc.getElementById('root') as Element, 'form');
      return doc.getElementById('root')?.textContent ?? '';
    };
    // The reader alone removes the form, posts and all.
    expect(clean(false)).not.toContain('Reply 0');
    const spared = clean(true);
    for (const n of [0, 1, 2]) expect(spared).toContain(`Reply ${n}: agreed`);
  });

  it('keeps the same block judged as before on a page that is no thread', () => {
    // The same link-dense block among an article's paragraphs, no poster panels: Readability's
    // conditional cleaning removes it, as it does on any page that is no thread.
    const prose = replies.map((reply) => `<p>${reply} ${reply}</p>`).join('');
    const html =
      '<html><head><title>Season preview</title></head><body><article><h1>Season preview</h1>' +
      `${prose}<div class="links">${linkList.replace(/^[^<]*<br><br>/, '')}</div>${prose}</article></body></html>`;
    const text = extractHtml(html, { url: 'https://news.example/preview' }).body_text;
    expect(text).toContain(replies[0]);
    expect(text).not.toContain('https://bundesliga.com/en/bundesliga/table');
  });
});
