import { visibleChars } from './content.js';
import { appendChildrenOf } from './text.js';

/**
 * The posts of a discussion page that its markup names comments (edits the page): old Reddit's
 * `<div class="thing comment" data-author="…">` in `<div class="commentarea">`. Readability drops
 * any block whose class or id says `comment` as the comments under an article, and the main-region
 * reading drops comments as page chrome (see content.ts); on a thread the posts are the page, and
 * what was left was its sidebar. A discussion is told by its posts: at least {@link MIN_POSTS}
 * elements carrying their poster's name in `data-author` (as forum engines mark each post), which
 * hold at least half the page's text, on a page that declares no article (an article's comments
 * stay comments). Their names and their containers' are rewritten, `comment` as `post`; and a
 * `<form>` in a post with no field to fill in (old Reddit's `<form class="usertext">` around each
 * post's text, for its poster to edit) becomes a `<div>`: both readings drop small forms.
 */

/** Posts a discussion has at least. */
const MIN_POSTS = 3;
/** A poster's name is short; a longer `data-author` is something else. */
const MAX_POSTER_CHARS = 60;
/** What a reader fills in or presses: a form without any is a wrapper. */
const FIELDS = 'input:not([type="hidden"]), textarea, select, button';
/** The words of a block's name that make Readability and content.ts drop it as comments. */
const COMMENT_NAME = /comments?|replies|community/gi;
const NAMES_COMMENTS = /comment|replies|community/i;

/** Renames the posts of a discussion (see the module's comment) among `elements`; returns how many elements were renamed or unwrapped. */
export function unnameCommentPosts(elements: readonly Element[], declaresArticle: boolean): number {
  if (declaresArticle) return 0;
  const posts = elements.filter((el) => {
    const poster = el.getAttribute('data-author');
    return poster !== null && poster.trim() !== '' && poster.length <= MAX_POSTER_CHARS;
  });
  if (posts.length < MIN_POSTS || !posts.some((post) => namesComments(post))) return 0;
  const body = posts[0]?.ownerDocument.body;
  if (!body) return 0;
  // A walk up from each post, not a comparison of each pair: a thread may have thousands.
  const isPost = new Set(posts);
  const outer = posts.filter((post) => {
    for (let el = post.parentElement; el !== null && el !== body; el = el.parentElement)
      if (isPost.has(el)) return false;
    return true;
  });
  const postChars = outer.reduce((sum, post) => sum + visibleChars(post.textContent ?? ''), 0);
  if (postChars * 2 < visibleChars(body.textContent ?? '')) return 0;
  const renamed = new Set<Element>();
  for (const post of posts) {
    for (let el: Element | null = post; el !== null && el !== body; el = el.parentElement) {
      if (renamed.has(el)) break;
      renamed.add(el);
    }
  }
  let count = 0;
  for (const post of outer) {
    for (const form of Array.from(post.getElementsByTagName('form'))) {
      if (form.querySelector(FIELDS) !== null) continue;
      const div = form.ownerDocument.createElement('div');
      for (const attr of ['class', 'id']) {
        const value = form.getAttribute(attr);
        if (value !== null) div.setAttribute(attr, value);
      }
      appendChildrenOf(form, div);
      form.replaceWith(div);
      count++;
    }
  }
  for (const el of renamed) {
    if (!namesComments(el)) continue;
    for (const attr of ['class', 'id']) {
      const value = el.getAttribute(attr);
      if (value !== null && NAMES_COMMENTS.test(value)) el.setAttribute(attr, value.replace(COMMENT_NAME, 'post'));
    }
    count++;
  }
  return count;
}

function namesComments(el: Element): boolean {
  return NAMES_COMMENTS.test(el.getAttribute('class') ?? '') || NAMES_COMMENTS.test(el.getAttribute('id') ?? '');
}
