import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { parseDocument } from './dom.js';
import { extractHtml } from './extract-html.js';
import {
  dropPostChrome,
  firstPostOpening,
  isOnePostOfMany,
  postDates,
  restorePostHeaders,
  revealNoscriptContent,
} from './forum-posts.js';

const doc = (body: string): Document => parseHTML(`<html><body>${body}</body></html>`).document as unknown as Document;
const squashed = (el: Element): string => (el.textContent ?? '').replace(/\s+/g, ' ').trim();

/** A post of a thread as phpBB-like engines write it: user panel, buttons, text, signature. */
const post = (n: number, user: string, text: string): string =>
  `<div class="post" id="p${n}"><dl class="postprofile"><dt><a href="/u/${user}">${user}</a></dt>` +
  `<dd>Senior Member</dd><dd><strong>Posts:</strong> ${100 + n}</dd><dd><strong>Joined:</strong> Mar 3, 2019</dd>` +
  `<dd><strong>Location:</strong> Ohio</dd></dl><div class="postbody"><ul class="profile-icons">` +
  `<li><a href="/posting?mode=quote&p=${n}"><span>Reply with quote</span></a></li></ul>` +
  `<p class="author"><a href="#p${n}">#${n}</a> by ${user} » Tue Aug 27, 2019</p>` +
  `<div class="content">${text}</div><div class="notice">Last edited by ${user} on Tue Aug 27, 2019, edited 1 time in total.</div>` +
  `<div class="signature">My garden blog, updated weekly since 2009</div></div></div>`;

describe('dropPostChrome', () => {
  it('removes panel statistics, button rows, post numbers, edit notes and signatures of repeated posts', () => {
    const d = doc(
      post(1, 'alice', '<p>How do I prune tomatoes in August?</p>') +
        post(2, 'bob', '<p>Cut the suckers below the first flower truss.</p>'),
    );
    expect(dropPostChrome(d.body).removed).toBeGreaterThan(0);
    const text = squashed(d.body);
    expect(text).toContain('How do I prune tomatoes in August?');
    expect(text).toContain('Cut the suckers below the first flower truss.');
    expect(text).toContain('alice');
    expect(text).toContain('by bob » Tue Aug 27, 2019');
    for (const gone of [
      'Posts:',
      'Joined:',
      'Location:',
      'Senior Member',
      'Reply with quote',
      '#1',
      'Last edited',
      'garden blog',
    ]) {
      expect(text).not.toContain(gone);
    }
  });

  it('keeps what a single block shows once: one share link, one statistic, issue numbers out of sequence', () => {
    const d = doc(
      '<article><h1>Release notes</h1><p>Fixed the crash (<a href="/i/20713">#20713</a>, <a href="/i/20424">#20424</a>).</p>' +
        '<p>Joined: the two teams merged in May 2020.</p><a href="/share">Share</a></article>',
    );
    expect(dropPostChrome(d.body).removed).toBe(0);
    expect(squashed(d.body)).toContain('#20713');
    expect(squashed(d.body)).toContain('Share');
  });

  it('reads button rows in one pass, and keeps a line of button words that is no row', () => {
    // A line of 27 `like`s and an `x` took seconds to reject when blanks could be read two ways.
    const near = `<span>${'like '.repeat(27)}x</span>`;
    const d = doc(
      `<div>${near.repeat(10)}</div>` +
        '<div><p>Cut the suckers.</p><p>Reply | Quote | Like</p><p>Like · Reply</p><p>Share Report</p></div>'.repeat(3),
    );
    expect(dropPostChrome(d.body).removed).toBe(9);
    const text = squashed(d.body);
    expect(text.split(`${'like '.repeat(27)}x`)).toHaveLength(11);
    for (const gone of ['Reply', 'Quote', 'Share', 'Report', '·']) expect(text).not.toContain(gone);
  });

  it("removes a post's share menu written as headings, and keeps a heading of button words said once", () => {
    /** A post as Invision writes it: its share menu, hidden until clicked, titled by `<h5>`s. */
    const ipsPost = (n: number, text: string): string =>
      `<article class="ipsComment"><div class="cPost_contentWrap"><p>${text}</p></div>` +
      `<div class="ipsHide cPostShareMenu" id="elSharePost_${n}_menu"><h5>Link to post</h5>` +
      `<input type="text" value="https://forum.example/topic/1/?p=${n}"><h5>Share on other sites</h5>` +
      '<ul><li><a href="https://x.com/share">X</a></li></ul></div></article>';
    const d = doc(`<h2>Share</h2>${ipsPost(1, 'Which lens for birds?')}${ipsPost(2, 'The 100-400.')}`);
    expect(dropPostChrome(d.body).removed).toBe(4);
    const text = squashed(d.body);
    expect(text).toContain('Which lens for birds?');
    expect(text).toContain('Share');
    for (const gone of ['Link to post', 'Share on other sites']) expect(text).not.toContain(gone);
  });

  it("names the thread's first poster from the first of several info panels, user names with numbers too", () => {
    /** A post as FluxBB writes it: the name alone in the panel, no link, no byline element. */
    const flux = (user: string, text: string) =>
      `<div class="postbody"><div class="postleft"><dl><dt><strong>${user}</strong></dt>` +
      `<dd class="usertitle"><strong>Member</strong></dd><dd><span>Registered: 2024-01-27</span></dd>` +
      `<dd><span>Posts: 98</span></dd></dl></div><div class="postright"><div class="postmsg"><p>${text}</p></div></div></div>`;
    const thread = flux('archuser38013', 'Which forum software is like this one?') + flux('seth', 'FluxBB.');
    expect(dropPostChrome(doc(thread).body).firstPoster).toBe('archuser38013');
    // One panel is a profile page, not a thread; a panel opening with a statistic names nobody.
    expect(dropPostChrome(doc(flux('seth', 'Hello.')).body).firstPoster).toBeNull();
    const unnamed = (text: string) =>
      `<div class="postbody"><div class="postleft"><dl><dd>Posts: 3</dd><dd>Joined: May 2020</dd></dl></div><p>${text}</p></div>`;
    expect(dropPostChrome(doc(unnamed('One.') + unnamed('Two.')).body).firstPoster).toBeNull();
    const page = extractHtml(`<html><head><title>Which forum software?</title></head><body>${thread}</body></html>`, {
      url: 'https://bbs.example.org/viewtopic.php?id=1',
    });
    expect(page.author).toBe('archuser38013');
  });

  it("removes the rank, banner, extras and letter avatar of XenForo's poster panels, keeping the name", () => {
    /** A post as XenForo writes it: the panel's parts are marked by class, its extras a label list. */
    const xfPost = (user: string, rank: string, text: string): string =>
      `<article class="message"><section class="message-user"><div class="message-avatar"><span class="avatar">${user[0]}</span></div>` +
      `<div class="message-userDetails"><h4 class="message-name"><a class="username">${user}</a></h4>` +
      `<h5 class="userTitle message-userTitle" itemprop="jobTitle">${rank}</h5>` +
      '<div class="userBanner message-userBanner"><strong>Supporter</strong></div></div>' +
      `<div class="message-userExtras">\n\n\n${'\t'.repeat(300)}<dl class="pairs"><dt>Location</dt><dd>Land of the Finns</dd></dl></div></section>` +
      `<div class="message-content"><blockquote class="bbCodeBlock"><div class="bbCodeBlock-content">${text}` +
      '<div class="bbCodeBlock-expandLink"><a>Click to expand...</a></div></div></blockquote><p>Indeed.</p></div></article>';
    const d = doc(
      xfPost('MarkoV', 'Hall of Famer', 'All cameras are now Leicas.') + xfPost('Irene', 'Legend', 'Polaroid, baby.'),
    );
    expect(dropPostChrome(d.body).removed).toBe(10);
    const text = squashed(d.body);
    for (const kept of ['MarkoV', 'Irene', 'All cameras are now Leicas.', 'Polaroid, baby.'])
      expect(text).toContain(kept);
    for (const gone of ['Hall of Famer', 'Legend', 'Supporter', 'Location', 'Finns', 'Click to expand']) {
      expect(text).not.toContain(gone);
    }
    expect(text.startsWith('MarkoV')).toBe(true);
  });

  it('keeps a part marked like a poster panel when the page has one, or when it holds much text', () => {
    const long = 'The whole story of the club, told over many paragraphs. '.repeat(8);
    const d = doc(
      '<h5 class="userTitle">Founder</h5><p>Our club met in 1998.</p>' +
        `<div class="usertitle">${long}</div><div class="usertitle">${long}</div>`,
    );
    expect(dropPostChrome(d.body).removed).toBe(0);
    expect(squashed(d.body)).toContain('Founder');
  });

  it("removes a thread's one signature, and keeps one on a page that is no thread", () => {
    const post = (n: number, user: string, signature: string) =>
      `<article data-author="${user}" id="post-${n}"><div class="bbWrapper">Reply number ${n} of this thread, with some words in it to read.</div>${signature}</article>`;
    const thread = doc(
      post(1, 'Ed', '<aside class="message-signature">My photos: ed.example</aside>') + post(2, 'Al', ''),
    );
    dropPostChrome(thread.body);
    expect(squashed(thread.body)).not.toContain('My photos');
    const letter = doc(
      `<article><p>${'Dear members, the club meets on Friday at the hall as usual. '.repeat(4)}</p><div class="signature">The committee</div></article>`,
    );
    expect(dropPostChrome(letter.body).removed).toBe(0);
    expect(squashed(letter.body)).toContain('The committee');
  });

  it('does not read code, and keeps a signature that is most of the page', () => {
    const d = doc(
      '<pre><code>flag</code></pre><p><code>flag</code> sets it.</p><div class="signature">A long letter body.</div>',
    );
    expect(dropPostChrome(d.body).removed).toBe(0);
  });

  it('removes the vote and comment counts microdata marks beside each post, and keeps a lone one or one with words', () => {
    // As Stack Exchange writes a question and its answers.
    const post = (kind: string, votes: number, comments: number, text: string) =>
      `<div itemprop="${kind}" itemscope itemtype="https://schema.org/Answer"><div class="votecell">` +
      `<button>Up vote</button><div class="js-vote-count" itemprop="upvoteCount" data-value="${votes}"> ${votes} </div></div>` +
      `<div class="postcell"><div itemprop="text"><p>${text}</p></div>` +
      `<span class="d-none" itemprop="commentCount">${comments}</span></div></div>`;
    const thread = doc(
      post('mainEntity', 26, 4, 'How do I back up my entire system?') +
        post('suggestedAnswer', 16, 3, 'Use rsync and exclude /proc, /sys and /dev.') +
        post('acceptedAnswer', 8, 0, 'Here is a solution I use with SquashFS.'),
    );
    expect(dropPostChrome(thread.body).removed).toBe(6);
    const left = squashed(thread.body);
    expect(left).toContain('Use rsync and exclude /proc, /sys and /dev.');
    expect(left).not.toMatch(/\b(?:26|16|4|3)\b/);
    const one = doc(`<p>Our answer count:</p><span itemprop="answerCount">12</span>`);
    expect(dropPostChrome(one.body).removed).toBe(0);
    const worded = doc(
      '<span itemprop="commentCount">12 comments</span><p>Text.</p><span itemprop="commentCount">3 comments</span>',
    );
    expect(dropPostChrome(worded.body).removed).toBe(0);
  });

  it("removes each post's link to its edit page, and keeps a lone one and links that only mention editing", () => {
    const post = (n: number, text: string) =>
      `<div class="post"><p>${text}</p><div class="menu"><a href="/posts/${n}/edit">Improve this answer</a></div></div>`;
    const thread = doc(
      post(1, 'How do I season a carbon steel pan?') +
        post(2, 'Oil it thinly and bake it upside down.') +
        '<div class="post"><p>Use flaxseed oil.</p><a href="/posting.php?mode=edit&amp;p=3">Edit</a></div>',
    );
    expect(dropPostChrome(thread.body).removed).toBe(3);
    expect(squashed(thread.body)).toBe(
      'How do I season a carbon steel pan?Oil it thinly and bake it upside down.Use flaxseed oil.',
    );
    const page = doc(
      '<p>Our guide.</p><a href="/posts/1/edit">Suggest an edit</a>' +
        '<a href="/blog/how-to-edit-video">How to edit video</a><a href="/edit-tools/overview">Editing tools</a>' +
        '<p>Copy our <a href="https://docs.example.com/sheet/1/edit">spreadsheet</a> or the ' +
        '<a href="https://docs.example.com/sheet/2/edit">template</a> to start.</p>',
    );
    expect(dropPostChrome(page.body).removed).toBe(0);
  });

  it('removes a heading that tallies the posts under it by their marked count, and keeps other headings with one', () => {
    const answers = (heading: string) =>
      doc(
        `<h2 data-answercount="2">${heading} <span style="display:none;" itemprop="answerCount">2</span></h2>` +
          '<div itemprop="suggestedAnswer"><p>Bring extra serving spoons.</p></div>',
      );
    for (const heading of ['2 Answers', '2 Antworten', '2']) {
      const d = answers(heading);
      expect(dropPostChrome(d.body).removed).toBe(1);
      expect(squashed(d.body)).toBe('Bring extra serving spoons.');
    }
    const worded = answers('Answers from our readers, sorted by votes');
    expect(dropPostChrome(worded.body).removed).toBe(0);
    const plain = doc('<h2>2 Answers</h2><p>Bring extra serving spoons.</p><h2>3 Answers</h2>');
    expect(dropPostChrome(plain.body).removed).toBe(0);
  });

  it("removes the like counts and post positions of Discourse's crawler view, and keeps an interaction statistic that says more", () => {
    const post = (n: number, likes: string, text: string) =>
      `<div id="post_${n}" itemprop="comment" itemscope itemtype="http://schema.org/Comment">` +
      `<span class="crawler-post-infos"><span itemprop="position">${n}</span></span>` +
      `<div class="post" itemprop="text"><p>${text}</p></div>` +
      '<div itemprop="interactionStatistic" itemscope itemtype="http://schema.org/InteractionCounter">' +
      '<meta itemprop="interactionType" content="http://schema.org/LikeAction"/>' +
      `<meta itemprop="userInteractionCount" content="${likes.replace(/\D/g, '')}" />` +
      `<span class="post-likes">${likes}</span></div></div>`;
    const thread = doc(
      post(1, '79 Likes', 'Which asyncio pattern avoids the deadlock?') +
        post(2, '1 Like', 'Await the queue before you close the loop.'),
    );
    expect(dropPostChrome(thread.body).removed).toBe(4);
    expect(squashed(thread.body)).toBe(
      'Which asyncio pattern avoids the deadlock?Await the queue before you close the loop.',
    );
    const prose = doc(
      '<p itemprop="interactionStatistic">Liked by 79 readers who tried the recipe</p><p>Text.</p>' +
        '<p itemprop="interactionStatistic">Shared 12 times since Monday morning</p>',
    );
    expect(dropPostChrome(prose.body).removed).toBe(0);
    // A chart's ranks are its own: the `position` of a list's item is no post's place.
    const chart = doc(
      ['The Godfather', 'Casablanca']
        .map(
          (film, i) =>
            `<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><span itemprop="position">${i + 1}</span> ${film}</li>`,
        )
        .join(''),
    );
    expect(dropPostChrome(chart.body).removed).toBe(0);
    expect(squashed(chart.body)).toBe('1 The Godfather2 Casablanca');
  });
});

describe('info panels as MyBB and phpBB write them', () => {
  /** A MyBB post: the panel's statistics are lines of one block, parted by `<br>`. */
  const mybb = (n: number, user: string, text: string) =>
    `<div class="post" id="post_${n}"><div class="post_author"><div class="author_avatar"><a href="/u/${n}"><img src="/a.gif" alt=""></a></div>` +
    `<div class="author_information"><strong><span class="largetext"><a href="/u/${n}">${user}</a></span></strong><br>` +
    `<span class="smalltext">Member</span></div><div class="author_statistics">Posts: ${100 + n}<br>Threads: ${n}<br>` +
    `Joined: Feb 2019<br>Reputation: <a href="/rep/${n}"><strong>7</strong></a></div></div>` +
    `<div class="post_content"><div class="post_head"><span class="post_date">2019-02-2${n}, 09:14 PM ` +
    '<span class="edited_post">(This post was last modified: 2024-01-05, 03:27 AM by someone. Edited 1 time in total.)</span></span></div>' +
    `<div class="post_body">${text}</div></div></div>`;

  it('removes statistics written as lines of one block, and marks each post with its poster', () => {
    const d = doc(
      `<div id="posts">${mybb(1, 'StarredSkies', 'Which is better, SMF or MyBB?')}${mybb(2, 'vbgamer45', 'Try both.')}</div>`,
    );
    const { firstPoster, marked } = dropPostChrome(d.body);
    expect(firstPoster).toBe('StarredSkies');
    expect(marked).toBe(2);
    expect(Array.from(d.querySelectorAll('[data-author]'), (el) => [el.id, el.getAttribute('data-author')])).toEqual([
      ['post_1', 'StarredSkies'],
      ['post_2', 'vbgamer45'],
    ]);
    const text = squashed(d.body);
    for (const gone of ['Posts:', 'Threads:', 'Joined:', 'Reputation:', 'last modified'])
      expect(text).not.toContain(gone);
    expect(text).toContain('Which is better, SMF or MyBB?');
  });

  it('keeps a block of lines that are not all statistics, and marks nothing on a page with one post', () => {
    const d = doc(
      '<div class="card">Posts: 12<br>Joined: 2020<br>Favourite colour: green and blue</div>' +
        '<div class="card">Posts: 14<br>Joined: 2021<br>Favourite colour: red</div><p>Our members.</p>',
    );
    expect(dropPostChrome(d.body)).toEqual({ removed: 0, firstPoster: null, marked: 0 });
    const lone = doc(mybb(1, 'StarredSkies', 'Which is better, SMF or MyBB?'));
    expect(dropPostChrome(lone.body).marked).toBe(0);
    expect(lone.querySelector('[data-author]')).toBeNull();
    expect(squashed(lone.body)).not.toContain('Posts:');
  });

  it('takes one statistic shown in three panels as panels, not in two', () => {
    /** A phpBB post whose panel shows only the poster's post count. */
    const phpbb = (n: number, user: string) =>
      `<div class="post" id="p${n}"><dl class="postprofile"><dt><a href="/u/${n}">${user}</a></dt><dd>Posts: ${n * 1000 + 17}</dd></dl>` +
      `<div class="postbody"><div class="content">Reply number ${n} of this thread, with some words.</div></div></div>`;
    const three = doc(phpbb(1, 'Minoa') + phpbb(2, 'Ayytaly') + phpbb(3, 'Minoa'));
    expect(dropPostChrome(three.body).marked).toBe(3);
    expect(squashed(three.body)).not.toContain('Posts:');
    const two = doc(phpbb(1, 'Minoa') + phpbb(2, 'Ayytaly'));
    expect(dropPostChrome(two.body)).toEqual({ removed: 0, firstPoster: null, marked: 0 });
    expect(squashed(two.body)).toContain('Posts: 2017');
    // A leaderboard's points are no poster's panel, however many rows show them.
    const rows = [1, 2, 3, 4].map((n) => `<li><b>Player ${n}</b><span>Points: ${500 - n * 10}</span></li>`).join('');
    const board = doc(`<ol>${rows}</ol>`);
    expect(dropPostChrome(board.body)).toEqual({ removed: 0, firstPoster: null, marked: 0 });
    expect(squashed(board.body)).toContain('Points: 490');
  });

  it('takes a panel inside one found before as part of it, and marks no block holding the whole thread', () => {
    /** A post whose panel shows a post count; the first also its join date, and quotes a panel. */
    const post = (n: number, user: string, extra = '', quoted = '') =>
      `<div class="post" id="p${n}"><dl class="postprofile"><dt><a href="/u/${n}">${user}</a></dt>${extra}` +
      `<dd>Posts: ${n * 1000 + 17}</dd></dl><div class="postbody"><div class="content">Reply ${n} with words.${quoted}</div></div></div>`;
    // The join date is the first post's alone: its panel grows to the whole (short) thread, which
    // then holds every other panel. Taken apart, the thread itself would be marked as Minoa's.
    const d = doc(
      `<div id="posts">${post(1, 'Minoa', '<dd>Joined: Mar 3, 2019</dd>', '<dl><dd>Posts: 5</dd></dl>')}` +
        `${post(2, 'Ayytaly')}${post(3, 'Kiro')}</div><footer>${'Words of the footer. '.repeat(30)}</footer>`,
    );
    expect(dropPostChrome(d.body).marked).toBe(0);
    expect(d.querySelector('[data-author]')).toBeNull();
  });

  it('measures a panel by its visible text, its indentation aside', () => {
    // phpBB indents its panels: 240 to 320 characters of textContent around 60 visible ones.
    const indent = `\n${' '.repeat(48)}`;
    const phpbb = (n: number, user: string) =>
      `<div class="post" id="p${n}"><div class="inner">${indent}<dl class="postprofile">${indent}<dt>${indent}` +
      `<a href="/u/${n}">${user}</a>${indent}</dt>${indent}<dd>Technical Moderator</dd>${indent}<dd>&nbsp;</dd>${indent}` +
      `<dd><strong>Posts:</strong> ${n * 1000 + 17}</dd>${indent}<dd><strong>Founded:</strong> Dec 11, 2021</dd>${indent}` +
      `<dd>New York Times Democracy</dd>${indent}</dl>${indent}<div class="postbody"><div class="content">` +
      `Reply number ${n} of this thread, with enough words to be a post of its own and more than its panel.</div></div></div></div>`;
    const d = doc(
      `<div id="posts">${phpbb(1, 'Outer Armatonisdaristan')}${phpbb(2, 'The BlAAtschApen')}${phpbb(3, 'Minoa')}</div>`,
    );
    expect(dropPostChrome(d.body)).toMatchObject({ firstPoster: 'Outer Armatonisdaristan', marked: 3 });
    expect(Array.from(d.querySelectorAll('[data-author]'), (el) => el.getAttribute('data-author'))).toEqual([
      'Outer Armatonisdaristan',
      'The BlAAtschApen',
      'Minoa',
    ]);
  });

  it("takes the largest block around a statistic that opens with a name, not a short post's dated block", () => {
    // vBulletin: the post's date over a row of its panel and its text; a short post is within
    // the panel's bound with it, and the block around both opens with the date.
    const vb = (n: number, user: string, text: string) =>
      `<div id="post${n}"><div class="thead">2nd April 2025, 13:5${n} #${n}</div><table><tr>` +
      `<td class="alt2"><a href="/u/${n}">${user}</a><div>Registered User</div><div>Join Date: Mar 2016</div>` +
      `<div>Posts: ${n * 100 + 1}</div></td><td class="alt1">${text}</td></tr></table></div>`;
    const d = doc(
      `<div id="posts">${vb(1, 'microfast', `<p>${'The encoder drops frames when hardware decoding is on. '.repeat(6)}</p>`)}` +
        `${vb(2, 'GeoffreyA', 'Does disabling hardware decoding do anything?')}</div>`,
    );
    expect(dropPostChrome(d.body).marked).toBe(2);
    expect(Array.from(d.querySelectorAll('[data-author]'), (el) => el.getAttribute('data-author'))).toEqual([
      'microfast',
      'GeoffreyA',
    ]);
  });

  it('takes no statistic or its label for a poster: `Join Date` over its value, `28 posts`', () => {
    /** A vBulletin-like post whose panel opens with a label, or a count, where its name is a picture. */
    const post = (n: number, opening: string) =>
      `<div class="post"><div class="panel"><img src="/a/${n}.png" alt=""><div>${opening}</div><div>Join Date: Mar 2019</div>` +
      `<div>Posts: ${n * 100}</div></div><div class="body">Reply number ${n} of this thread, with some words in it.</div></div>`;
    for (const opening of ['Join Date', '28 posts', 'Location']) {
      const d = doc(post(1, opening) + post(2, opening) + post(3, opening));
      expect(dropPostChrome(d.body)).toMatchObject({ firstPoster: null, marked: 0 });
      expect(d.querySelector('[data-author]')).toBeNull();
    }
    const named = doc(post(1, 'Minoa') + post(2, 'Ayytaly') + post(3, 'Minoa'));
    expect(dropPostChrome(named.body)).toMatchObject({ firstPoster: 'Minoa', marked: 3 });
  });

  it('reads the opening of the first post marked with its poster, never a quote', () => {
    const d = doc(
      '<blockquote data-author="quoted">Quoted words.</blockquote><div data-author="Minoa"><p class="author">by Minoa » Tue Aug 27, 2019 5:58 am</p>' +
        `<p>${'Thanks for the suggestion. '.repeat(20)}</p></div><div data-author="Ayytaly">Later.</div>`,
    );
    const opening = firstPostOpening(d);
    expect(opening.startsWith('by Minoa » Tue Aug 27, 2019 5:58 am Thanks')).toBe(true);
    expect(opening).toHaveLength(300);
    expect(firstPostOpening(doc('<p>No posts.</p>'))).toBe('');
  });

  it.each(['linkedom', 'jsdom'] as const)('dates a phpBB thread without an <h1> by its first post (%s)', (dom) => {
    const post = (n: number, user: string, day: number) =>
      `<div class="post" id="p${n}"><dl class="postprofile"><dt><a href="/u/${n}">${user}</a></dt><dd>Posts: ${n * 1000 + 17}</dd></dl>` +
      `<div class="postbody"><h3><a href="#p${n}">Re: Football</a></h3><p class="author">by <strong>${user}</strong> » Tue Aug ${day}, 2019 4:08 am</p>` +
      `<div class="content">${`Reply number ${n} of this thread, about the new football season and its fixtures. `.repeat(4)}</div></div></div>`;
    const html =
      '<html lang="en"><head><title>Forum • View topic - Football Season</title></head><body><div id="wrap">' +
      `<h2><a href="./viewtopic.php?t=1">Football Season</a></h2>${post(1, 'Minoa', 27)}${post(2, 'Ayytaly', 28)}${post(3, 'Minoa', 29)}</div></body></html>`;
    const page = extractHtml(html, { url: 'https://forum.example/viewtopic.php?t=1', dom });
    expect(page.published_at?.slice(0, 10)).toBe('2019-08-27');
    expect(page.title).toBe('Football Season');
  });

  it("marks an Invision thread's posts with the poster its quote button names, not a lone post or bad JSON", () => {
    const wrap = (n: number, data: string) =>
      `<article id="elComment_${n}"><aside class="ipsComment_author"><h3><a href="/profile/${n}">someone</a></h3></aside>` +
      `<div id="comment-${n}_wrap" data-commentid="${n}" data-quotedata="${data}"><p>Post number ${n} of the topic.</p></div></article>`;
    const json = (user: string) =>
      JSON.stringify({ userid: 1, username: user, timestamp: 1724689771 }).replace(/"/g, '&quot;');
    const d = doc(wrap(1, json('ron1cne')) + wrap(2, json('paul2009')));
    expect(dropPostChrome(d.body).marked).toBe(2);
    expect(Array.from(d.querySelectorAll('[data-author]'), (el) => el.getAttribute('data-author'))).toEqual([
      'ron1cne',
      'paul2009',
    ]);
    const lone = doc(wrap(1, json('ron1cne')));
    expect(dropPostChrome(lone.body).marked).toBe(0);
    const broken = doc(wrap(1, '{not json') + wrap(2, json('Posted by the editors of this magazine')));
    expect(dropPostChrome(broken.body).marked).toBe(0);
    expect(broken.querySelector('[data-author]')).toBeNull();
  });

  it.each(['linkedom', 'jsdom'] as const)('lets extractHtml keep who wrote each post of a MyBB thread (%s)', (dom) => {
    const body = (words: string) => `${words}, and the converter kept every member and post when we moved. `.repeat(4);
    const html =
      '<html lang="en"><head><title>SMF vs MyBB? | MyBB Community</title></head><body><div id="header"><a href="/">Home</a></div>' +
      `<table><tr><td id="posts_container"><div id="posts">${mybb(1, 'StarredSkies', body('I run an SMF forum'))}` +
      `${mybb(2, 'User 37079', body('Why not try it out'))}${mybb(3, 'dragonexpert', body('The last time I used SMF'))}</div></td></tr></table></body></html>`;
    const text = extractHtml(html, { url: 'https://community.example/thread-1.html', dom }).body_text;
    const lines = text.split('\n').filter((line) => line !== '');
    expect(lines.filter((line) => ['StarredSkies', 'User 37079', 'dragonexpert'].includes(line))).toEqual([
      'StarredSkies',
      'User 37079',
      'dragonexpert',
    ]);
    expect(lines[lines.indexOf('User 37079') + 1]).toBe('2019-02-22, 09:14 PM');
    expect(text).not.toMatch(/Posts:|Reputation:|last modified/);
  });
});

describe('revealNoscriptContent', () => {
  const paragraph = '<p>The goal of forum software is to facilitate online community discussion among members.</p>';
  it('unwraps the crawler version a script-built page keeps in <noscript> when the rest is a shell', () => {
    const d = doc(
      '<div id="app"></div><div style="display:none">Loading...</div>' +
        `<noscript id="content"><article><h3>antonjw</h3>${paragraph.repeat(15)}</article></noscript>`,
    );
    expect(revealNoscriptContent(d)).toBe(true);
    expect(d.body.getElementsByTagName('noscript')).toHaveLength(0);
    expect(d.body.querySelector('article h3')?.textContent).toBe('antonjw');
  });

  it('leaves <noscript> alone on a page with its own text', () => {
    const d = doc(`<main>${paragraph.repeat(10)}</main><noscript><div>${paragraph.repeat(15)}</div></noscript>`);
    expect(revealNoscriptContent(d)).toBe(false);
  });

  it('lets extractHtml read a thread served only in <noscript>', () => {
    const html =
      '<html><head><title>Types of threads</title></head><body><div id="app"></div>' +
      `<noscript><div class="container"><h1>Types of threads</h1><article><h3>antonjw</h3>${paragraph.repeat(15)}` +
      '</article></div></noscript></body></html>';
    const page = extractHtml(html, { url: 'https://forum.example/d/1' });
    expect(page.body_text).toContain('facilitate online community discussion');
  });
});

describe('isOnePostOfMany', () => {
  it('is true when the largest of several <article>s is the text and the others hold more', () => {
    expect(isOnePostOfMany([1165, 700, 600, 500, 300], 1101)).toBe(true);
    // An article with two related cards, or whose comments hold less than it.
    expect(isOnePostOfMany([5000, 300], 5000)).toBe(false);
    expect(isOnePostOfMany([5000, 900, 800, 700], 5000)).toBe(false);
    // Readability's text is not the largest <article>.
    expect(isOnePostOfMany([3000, 2000, 1500], 1400)).toBe(false);
    expect(isOnePostOfMany([], 0)).toBe(false);
  });

  it.each(['linkedom', 'jsdom'] as const)(
    'lets extractHtml read a thread of <article> posts that declares itself an article whole (%s)',
    (dom) => {
      const words = (topic: string, n: number) =>
        Array.from(
          { length: n },
          (_, i) => `About ${topic}, a thought numbered ${i}, with some more words to read.`,
        ).join(' ');
      const posts = [
        ['Former Member', words('gratuity lines on catering proposals', 6)],
        ['mnhogfarmer', words('tacking on an automatic tip', 6)],
        ['smokin', words('raising the base charge instead', 6)],
        ['newguy', words('a consumer viewpoint on tipping servers', 14)],
      ]
        .map(
          ([user, text], i) =>
            // Each post deep in its <article>, with its own chrome: Readability takes the longest alone.
            `<div id="wrap${i}"><article class="post-box"><div class="row"><div class="columns"><div class="byline">${user}</div>` +
            `<div class="inner"><div class="post-body">${text}</div></div></div></div><div class="meta">` +
            '<time datetime="2005-07-10T00:57:00">7/9/05</time><ul class="share"><li><a href="#f">Facebook</a></li>' +
            '<li><a href="#t">Twitter</a></li></ul></div></article></div>',
        )
        .join('');
      const html =
        '<html><head><title>Catering tips</title><meta property="og:type" content="article"></head><body>' +
        `<header><a href="/">Cookshack</a></header><main><h1>Catering tips</h1><div id="replies">${posts}</div></main></body></html>`;
      const text = extractHtml(html, { url: 'https://forum.example/topic/catering-tips', dom }).body_text;
      expect(text).toContain('gratuity lines on catering proposals');
      expect(text).toContain('raising the base charge instead');
      expect(text).toContain('a consumer viewpoint on tipping servers');
    },
  );
});

describe('postDates and restorePostHeaders', () => {
  /** A XenForo post as the reader leaves it: the poster's panel and the dated header are gone. */
  const bare = (id: number, user: string, text: string) =>
    `<article class="message" data-author="${user}" id="js-post-${id}"><div class="bbWrapper">${text}</div></article>`;
  /** The same post as served, with its panel and header. */
  const served = (id: number, user: string, day: string, text: string) =>
    `<article class="message" data-author="${user}" id="js-post-${id}"><div class="message-cell--user">` +
    `<h4 class="message-name"><a href="/members/${id}/">${user}</a></h4></div><header class="message-attribution">` +
    `<a href="/posts/${id}/"><time datetime="2024-09-${day}T10:00:00+0100">Sep ${day}, 2024</time></a></header>` +
    `<div class="bbWrapper">${text}</div></article>`;
  const thread = (html: string, dom: 'linkedom' | 'jsdom') =>
    parseDocument(`<html><body>${html}</body></html>`, 'https://f.example/t/1', dom);

  it.each(['linkedom', 'jsdom'] as const)('gives each post its poster and date back, as served (%s)', (dom) => {
    const source = thread(served(1, 'Chris Hall', '21', 'Great iPad.') + served(2, 'lgans316', '22', 'Too dear.'), dom);
    const read = thread(
      `<div id="content">${bare(1, 'Chris Hall', 'Great iPad.')}${bare(2, 'lgans316', 'Too dear.')}</div>`,
      dom,
    );
    try {
      const dates = postDates(source.document);
      expect([...dates]).toEqual([
        ['js-post-1', 'Sep 21, 2024'],
        ['js-post-2', 'Sep 22, 2024'],
      ]);
      const root = read.document.getElementById('content') as Element;
      expect(restorePostHeaders(root, dates)).toBe(2);
      expect(Array.from(root.querySelectorAll('article'), squashed)).toEqual([
        'Chris Hall · Sep 21, 2024Great iPad.',
        'lgans316 · Sep 22, 2024Too dear.',
      ]);
      expect(root.querySelector('article > p')?.nextElementSibling?.className).toBe('bbWrapper');
    } finally {
      source.close();
      read.close();
    }
  });

  it("reads XenForo 1's DateTime where a post has no <time>", () => {
    const d = doc(
      '<li id="post-1" class="message" data-author="Spartan14"><div class="messageMeta"><a class="username">Spartan14</a>, ' +
        '<span class="DateTime" title="May 12, 2024 at 2:39 AM">May 12, 2024</span></div></li>' +
        '<li id="post-2" class="message" data-author="cooler1"><abbr class="DateTime" data-time="1715740000">May 15, 2024</abbr></li>',
    );
    expect([...postDates(d)]).toEqual([
      ['post-1', 'May 12, 2024'],
      ['post-2', 'May 15, 2024'],
    ]);
  });

  it('adds only what a post lacks, also to a nested reply, and nothing to a quote, a lone post or a name that is no user name', () => {
    const quote = '<blockquote data-author="Chris Hall">Great iPad.</blockquote>';
    const named = doc(
      `<div id="c">${served(1, 'Chris Hall', '21', 'Great iPad.')}${bare(2, 'lgans316', `Too dear. ${quote}${bare(3, 'Ed Selley', 'Not to me.')}`)}</div>`,
    );
    const root = named.getElementById('c') as Element;
    // The first post shows its name and date; the others get their names (no date is known for them).
    expect(restorePostHeaders(root, new Map([['js-post-1', 'Sep 21, 2024']]))).toBe(2);
    expect(squashed(root)).toBe('Chris HallSep 21, 2024Great iPad.lgans316Too dear. Great iPad.Ed SelleyNot to me.');

    const lone = doc(`<div id="c">${bare(1, 'Chris Hall', 'Great iPad.')}</div>`);
    expect(restorePostHeaders(lone.getElementById('c') as Element, new Map())).toBe(0);
    const prose = doc(
      `<div id="c">${bare(1, 'Posted by the editors of this magazine', 'One.')}${bare(2, 'x: y', 'Two.')}</div>`,
    );
    expect(restorePostHeaders(prose.getElementById('c') as Element, new Map())).toBe(0);
  });

  it.each(['linkedom', 'jsdom'] as const)(
    'lets extractHtml keep who wrote each post of a XenForo thread, and when (%s)',
    (dom) => {
      const post = (id: number, user: string, day: string, text: string) =>
        `<article class="message message--post" data-author="${user}" id="js-post-${id}"><div class="message-inner">` +
        '<div class="message-cell message-cell--user"><section class="message-user"><div class="message-avatar">' +
        `<a href="/members/${id}/"><img src="/a/${id}.jpg" alt="${user}"></a></div><div class="message-userDetails">` +
        `<h4 class="message-name"><a href="/members/${id}/">${user}</a></h4><h5 class="userTitle">Member</h5></div></section></div>` +
        '<div class="message-cell message-cell--main"><div class="message-main"><header class="message-attribution">' +
        `<ul class="message-attribution-main"><li><a href="/posts/${id}/"><time datetime="2024-09-${day}T10:00:00+0100">Sep ${day}, 2024</time></a></li></ul>` +
        `<ul class="message-attribution-opposite"><li><a href="/posts/${id}/share">Share</a></li><li><a href="/posts/${id}/">#${id}</a></li></ul></header>` +
        '<div class="message-content"><div class="message-userContent"><article class="message-body"><div class="bbWrapper">' +
        `${`${text}, and it is a fine device for drawing, writing and reading, though the price is steep for most of us. `.repeat(4)}` +
        '</div></article></div></div></div></div></div></article>';
      const html =
        '<html lang="en"><head><title>iPad Pro review | AV Forums</title></head><body><header><nav><a href="/">Home</a></nav></header>' +
        `<main><h1>iPad Pro review</h1><div class="block-body">${post(1, 'Chris Hall', '21', 'The iPad Pro is thin')}` +
        `${post(2, 'lgans316', '21', 'Bang on the money')}${post(3, 'Ed Selley', '22', 'I like the keyboard')}</div></main></body></html>`;
      const text = extractHtml(html, { url: 'https://f.example/threads/1/', dom }).body_text;
      const at = (s: string) => text.indexOf(s);
      // Readability drops the poster's panel and the dated header of every post (a link and a picture).
      expect([at('Chris Hall · Sep 21, 2024'), at('lgans316 · Sep 21, 2024'), at('Ed Selley · Sep 22, 2024')]).toEqual([
        0,
        at('Bang on the money') - 'lgans316 · Sep 21, 2024\n\n'.length,
        at('I like the keyboard') - 'Ed Selley · Sep 22, 2024\n\n'.length,
      ]);
    },
  );
});
