import { linkShareOf } from './content.js';
import { hasTextAfter, shortTextNodes, squash, visibleChars } from './text.js';

/**
 * Lists of links to a site's other pages that a label introduces inside an article: `You might also
 * like:`, `More from SewCanShe:`, `Read more:`, `Related posts`, `相关阅读` over a list of headlines
 * (a WordPress plugin's or the writer's own).
 * They sit in the article's own markup, with no class that names them (content.ts finds those that
 * have one), and their links carry headlines, longer than a menu's entries, so they do not read as
 * navigation. A reader skips them; an index that keeps them finds the page for the other pages'
 * words, and an answer quoting the page quotes them.
 *
 * Only a label that names other pages is read: `Sources`, `References`, `Further reading`, `See also`
 * and `Downloads` introduce lists that belong to the article (its citations, its files), and
 * `Latest posts` or `Recent articles` may head the whole of a blog's index page.
 */

/** A label that introduces other pages, its whole text (a colon or an arrow may close it). */
const RELATED_LABEL = new RegExp(
  '^(?:' +
    [
      'you (?:may|might|will|could) (?:also )?(?:like|love|enjoy|be interested in)',
      'read (?:more|next|also)',
      'also read',
      'more (?:from|on|in|about) .{1,40}',
      'more (?:stories|articles|posts|reading|news|like this)',
      'related(?: (?:posts?|articles?|stories|reading|content|links|news|coverage|guides?|topics))?',
      '(?:recommended|suggested)(?: (?:for you|reading|articles?|posts?|stories|content))?',
      'popular (?:posts|articles|stories)',
      "(?:don'?t|do not) miss",
      'keep reading',
      'check out (?:these|more)',
      '相关(?:阅读|新闻|文章|链接|推荐|报道)',
      '延伸阅读',
      '推荐阅读',
      '猜你喜欢',
      '热门推荐',
      '更多(?:精彩|阅读|文章|新闻)',
    ].join('|') +
    ')\\s*[:：»›→>\\-–—]*$',
  'iu',
);
/** A label is a few words; a longer text that opens so is a sentence. */
const MAX_LABEL_CHARS = 60;
/** A list of other pages is links for the most part. */
const MIN_LINK_SHARE = 0.7;
/** And names at least two of them (one link under a label is a pointer the writer chose). */
const MIN_LINKS = 2;
/** Elements passed over between the label and its list: a picture, an empty paragraph. */
const PASSED_OVER = new Set(['figure', 'img', 'picture', 'br', 'hr']);

/** Text after the last list (a share bar's words, a tag line) that still leaves it at the content's end. */
const MAX_CHARS_AFTER = 200;
/**
 * The label texts read, from the content's end: a page ends with a few lists at most, and each text
 * read costs a walk up its elements (a page of 5,000 labelled lists took 29 s when all were read).
 */
const MAX_LABELS_READ = 20;

/**
 * Removes from `content` (the main content chosen for a page) the labelled lists of other pages at
 * its end (see the module's comment): each label and its list, when at most
 * {@link MAX_CHARS_AFTER} characters of text follow it and it holds at most a third of the
 * content's text (content that is nothing but one is an index of pages, whatever its label). A list
 * in the middle of the text is left: writers put their own `Suggested reading` between sections,
 * as part of what they wrote. Returns how many were removed.
 */
export function dropRelatedLinks(content: Element): number {
  let removed = 0;
  const labels = labelTexts(content);
  let total: number | undefined;
  // From the end: a list goes once the lists after it have gone. Only the last few label texts are
  // read (see MAX_LABELS_READ).
  for (let i = labels.length - 1; i >= 0 && i >= labels.length - MAX_LABELS_READ; i--) {
    const node = labels[i] as Node;
    const el = node.parentElement;
    if (el === null || el === content || !content.contains(el) || el.closest('a[href]') !== null) continue;
    const text = squash(node.nodeValue);
    if (squash(el.textContent) !== text) continue;
    const label = outerLabel(el, text, content);
    const list = listAfter(label);
    const last = list.at(-1);
    if (last === undefined) continue;
    // The lists before this one are followed by its text as well: none of them ends the content.
    if (hasTextAfter(last, content, MAX_CHARS_AFTER)) break;
    total ??= visibleChars(content.textContent ?? '');
    const chars = list.reduce((n, item) => n + visibleChars(item.textContent ?? ''), 0);
    if (chars * 3 > total) continue;
    total -= chars + visibleChars(label.textContent ?? '');
    label.remove();
    for (const item of list) item.remove();
    removed++;
  }
  return removed;
}

/** The text nodes of `content` that are a label's whole words (see {@link RELATED_LABEL}), in document order. */
function labelTexts(content: Element): Node[] {
  // Room for the markup's blanks around a label's words.
  return shortTextNodes(content, 2 * MAX_LABEL_CHARS, (value) => {
    const text = squash(value);
    return text.length > 0 && text.length <= MAX_LABEL_CHARS && RELATED_LABEL.test(text);
  });
}

/** The outermost element around `el` whose whole text is the label (`<div><p><strong>Label`). */
function outerLabel(el: Element, text: string, content: Element): Element {
  let label = el;
  for (let up = el.parentElement; up !== null && up !== content; up = up.parentElement) {
    if (squash(up.textContent) !== text) break;
    label = up;
  }
  return label;
}

/**
 * The siblings after `label` that list other pages: each mostly links, with at least
 * {@link MIN_LINKS} links in all; pictures and empty elements between them are taken along. Empty
 * when the label introduces something else.
 */
function listAfter(label: Element): Element[] {
  const list: Element[] = [];
  let links = 0;
  for (let next = label.nextElementSibling; next !== null; next = next.nextElementSibling) {
    const name = next.localName.toLowerCase();
    const chars = visibleChars(next.textContent ?? '');
    if (PASSED_OVER.has(name) || (chars === 0 && next.querySelector('a[href]') === null)) {
      list.push(next);
      continue;
    }
    if (chars === 0 || linkShareOf(next) < MIN_LINK_SHARE || /^h[1-6]$/.test(name)) break;
    list.push(next);
    links += next.querySelectorAll('a[href]').length + (name === 'a' && next.hasAttribute('href') ? 1 : 0);
  }
  // What was passed over after the last list is not the list's.
  while (list.length > 0 && visibleChars(list.at(-1)?.textContent ?? '') === 0) list.pop();
  return links >= MIN_LINKS ? list : [];
}
