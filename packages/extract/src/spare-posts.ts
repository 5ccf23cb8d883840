import { visibleChars } from './content.js';

/**
 * Keeps Readability's conditional cleaning off the posts of a forum thread. It removes a block
 * whose text is a third links or more unless its class reads as content: a thread's first post
 * that lists the links it is about (phpBB's `<div class="content">` holding a season's fixtures)
 * went, and the thread was read from its first reply. The posts are the page's content, links and
 * all; the chrome around them went before the reader ran (see forum-posts.ts `dropPostChrome`).
 */

/** The post a block is the text of: the block holds at least this share of the post's text outside links. */
const POST_TEXT_SHARE = 0.5;

/** The parts of Readability 0.6 this patches (private methods of the pinned version, checked before use). */
interface ConditionalCleaning {
  _cleanConditionally(root: Element, tag: string): void;
  _removeNodes(nodes: ArrayLike<Element>, filter?: RemoveFilter): void;
}

type RemoveFilter = (this: unknown, node: Element, index: number, nodes: ArrayLike<Element>) => boolean;

/**
 * Makes a Readability instance's conditional cleaning spare each post of a thread marked with its
 * poster (`data-author`, see forum-posts.ts; not a quote's) and each block that holds one or that
 * is most of one's text. Blocks inside a post that are a small part of it (a list of links under
 * a long post) are judged as before. An instance whose methods are not those of Readability 0.6 is
 * left as it is.
 */
export function sparePosts(readability: object): void {
  const reader = readability as ConditionalCleaning;
  if (typeof reader._cleanConditionally !== 'function' || typeof reader._removeNodes !== 'function') return;
  const clean = reader._cleanConditionally.bind(reader);
  reader._cleanConditionally = (root, tag) => {
    const posts = threadPosts(root);
    if (posts.size < 2) return clean(root, tag);
    const holding = new Set<Element>();
    for (const post of posts)
      for (let up = post.parentElement; up !== null && !holding.has(up); up = up.parentElement) holding.add(up);
    const remove = reader._removeNodes;
    reader._removeNodes = (nodes, filter) =>
      remove.call(
        reader,
        nodes,
        filter &&
          function (this: unknown, node, index, list) {
            return filter.call(this, node, index, list) && !isPostText(node, posts, holding);
          },
      );
    try {
      clean(root, tag);
    } finally {
      reader._removeNodes = remove;
    }
  };
}

/** The posts marked with their posters under `root`, quotes' marks left out. */
function threadPosts(root: Element): Set<Element> {
  const posts = new Set<Element>();
  for (const el of Array.from(root.querySelectorAll('[data-author]')))
    if (el.closest('blockquote') === null) posts.add(el);
  return posts;
}

/**
 * Whether `node` is a post, holds one, or holds most of the text outside links of the post it is
 * in (a post's row of buttons, `permalink embed save parent report`, is links only).
 */
function isPostText(node: Element, posts: ReadonlySet<Element>, holding: ReadonlySet<Element>): boolean {
  if (posts.has(node) || holding.has(node)) return true;
  for (let up = node.parentElement; up !== null; up = up.parentElement) {
    if (!posts.has(up)) continue;
    const postChars = charsOutsideLinks(up);
    return postChars > 0 && charsOutsideLinks(node) >= POST_TEXT_SHARE * postChars;
  }
  return false;
}

/** The visible characters of an element's text outside its links (see visibleChars). */
function charsOutsideLinks(el: Element): number {
  let chars = 0;
  walkTextOutsideLinks(el, (text) => {
    chars += visibleChars(text);
  });
  return chars;
}

function walkTextOutsideLinks(root: Element, visit: (text: string) => void): void {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node.nodeType === TEXT_NODE) visit((node as CharacterData).data);
    else if (node.nodeType === ELEMENT_NODE && (node as Element).localName.toLowerCase() !== 'a')
      for (let child = node.lastChild; child !== null; child = child.previousSibling) stack.push(child);
  }
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
