import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { unnameCommentPosts } from './comment-posts.js';

const POSTS = [
  ['Ragnar', 'Might this also be a potential cure for tinnitus if we can trigger new cilia to grow in the inner ear?'],
  ['Baron', 'Oh, I dream of a day where there is silence and not a ringing that goes on and on for ever and ever.'],
  ['Rich', 'Thankfully, I do not notice it any more unless someone brings it up; then I try not to for an hour.'],
  ['Zissoo', 'The person reading this now hears the ringing in their ear, and will for the rest of the afternoon.'],
];

/** An old-Reddit-like thread: each post a `comment` with its poster in `data-author`, its text in a `<form>`. */
const thread = (posts = POSTS) =>
  '<div class="side"><div class="md"><h1>Rules</h1><p>No memes. No medical advice. Be civil to one another.</p></div></div>' +
  '<div class="content"><div class="commentarea"><div class="sitetable nestedlisting">' +
  posts
    .map(
      ([who, text]) =>
        `<div class="thing comment" data-author="${who}"><p class="tagline"><a href="/u/${who}">${who}</a> 12 points</p>` +
        `<form class="usertext" action="#"><input type="hidden" name="thing_id" value="t1"><div class="usertext-body"><div class="md"><p>${text}</p></div></div></form></div>`,
    )
    .join('') +
  '</div></div></div>';

const elementsOf = (html: string) =>
  Array.from(parseHTML(`<html><body>${html}</body></html>`).document.body.querySelectorAll('*'));

describe('unnameCommentPosts', () => {
  it("renames a thread's posts and their containers, and unwraps forms with nothing to fill in", () => {
    const elements = elementsOf(thread());
    // Four posts, the comment area, and four forms.
    expect(unnameCommentPosts(elements, false)).toBe(9);
    const body = elements[0]?.ownerDocument.body;
    expect(body?.querySelector('.commentarea, .comment, form')).toBeNull();
    expect(body?.querySelectorAll('.postarea .thing.post .usertext .md')).toHaveLength(4);
  });

  it("leaves an article's comments, a form to fill in, and a thread of fewer posts or less text alone", () => {
    expect(unnameCommentPosts(elementsOf(thread()), true)).toBe(0);
    expect(unnameCommentPosts(elementsOf(thread(POSTS.slice(0, 2))), false)).toBe(0);
    const article = `<article>${'<p>A long article about ears and how they hear the world around them.</p>'.repeat(20)}</article>`;
    expect(unnameCommentPosts(elementsOf(article + thread()), false)).toBe(0);
    const reply = thread().replace(
      '<input type="hidden" name="thing_id" value="t1">',
      '<textarea name="text"></textarea>',
    );
    const elements = elementsOf(reply);
    unnameCommentPosts(elements, false);
    expect(elements[0]?.ownerDocument.body.querySelectorAll('form')).toHaveLength(1);
  });
});
