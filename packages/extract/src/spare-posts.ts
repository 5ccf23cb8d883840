import { visibleChars } from './content.js';

/**
 * Keeps Readability's conditional cleaning off the posts of a forum thread. It removes a block
 * whose text is a third links or more unless its class reads as content: a thread's first post
 * that lists the links it is about (phpBB's `<div class="content">` holding a season's fixtures)
 * went, and the thread was read from its first reply. The posts are the page's content, links and
 * all; the chrome around them went before the reader ran (see forum-posts.ts `dropPostChrome`).
 */

/** The parts of Readability 0.6 this patches (private methods of the pinned version, checked before use). */
interface ConditionalCleaning {
  _cleanConditionally(root: Element, tag: string): void;
  _removeNodes(nodes: ArrayLike<Element>, filter?: RemoveFilter): void;
}

type RemoveFilter = (this: unknown, node: Element, index: number, nodes: ArrayLike<Element>) => boolean;

/**
 * Makes a Readability instance's conditional cleaning spare each post of a thread marked with its
 * poster (`data-author`, see forum-posts.ts; not a quote's), each block that holds one, and each
 * block inside one that is its words (see {@link POST_TEXT_SHARE}). A post's furniture and its
 * blocks of links alone (its buttons) are judged as before. An instance whose methods are not those of Readability 0.6 is left as it is.
 */
export function sparePosts(readability: object): void {
  const reader = readability as ConditionalCleaning;
  if (typeof reader._cleanConditionally !== 'function' || typeof reader._removeNodes !== 'function') return;
  const clean = reader._cleanConditionally.bind(reader);
  // Readability cleans one article root tag after tag (form, fieldset, table, ul, div...), and no
  // cleaning removes a post or a block holding one: they are found once a root.
  const threads = new WeakMap<Element, Thread>();
  reader._cleanConditionally = (root, tag) => {
    let thread = threads.get(root);
    if (thread === undefined) {
      thread = threadOf(root);
      threads.set(root, thread);
    }
    const { posts, holding } = thread;
    if (posts.size < 2) return clean(root, tag);
    // Read once a call, when a block in a post is first judged removable. Blocks go as the call
    // tests them, but in a post only blocks of links alone go, which add nothing to what is read.
    let texts: PostTexts | null = null;
    const remove = reader._removeNodes;
    reader._removeNodes = (nodes, filter) =>
      remove.call(
        reader,
        nodes,
        filter &&
          function (this: unknown, node, index, list) {
            if (!filter.call(this, node, index, list)) return false;
            if (posts.has(node) || holding.has(node)) return false;
            texts ??= postTexts(posts);
            return !isPostText(node, texts);
          },
      );
    try {
      clean(root, tag);
    } finally {
      reader._removeNodes = remove;
    }
  };
}

/** A thread's posts under an article root and the blocks holding them. */
interface Thread {
  readonly posts: ReadonlySet<Element>;
  readonly holding: ReadonlySet<Element>;
}

/** The posts marked with their posters under `root` (quotes' marks left out), and the blocks holding them. */
function threadOf(root: Element): Thread {
  const posts = new Set<Element>();
  for (const el of Array.from(root.querySelectorAll('[data-author]')))
    if (el.closest('blockquote') === null) posts.add(el);
  const holding = new Set<Element>();
  if (posts.size >= 2)
    for (const post of posts)
      for (let up = post.parentElement; up !== null && !holding.has(up); up = up.parentElement) holding.add(up);
  return { posts, holding };
}

/**
 * A block inside a post with text outside links and at least this share of the post's text is
 * that post's words (a short reply's `Agreed, see this thread`, under its poster's name and date);
 * less is the post's furniture (`Spartan14, May 12, 2024 IP`, `MargoFarrel likes this.`).
 */
const POST_TEXT_SHARE = 1 / 3;

/**
 * The post each element of a thread's posts is in (the nearest), each one's visible characters
 * (see visibleChars), and those outside links.
 */
interface PostTexts {
  readonly postOf: Map<Element, Element>;
  readonly chars: Map<Element, number>;
  readonly unlinked: Map<Element, number>;
}

/**
 * Whether `node` is inside a post and is its words (see {@link POST_TEXT_SHARE}), not a row of its
 * buttons (`permalink embed save parent report`, links only).
 */
function isPostText(node: Element, { postOf, chars, unlinked }: PostTexts): boolean {
  const post = postOf.get(node);
  if (post === undefined || (unlinked.get(node) ?? 0) === 0) return false;
  return (chars.get(node) ?? 0) >= POST_TEXT_SHARE * (chars.get(post) ?? 0);
}

/**
 * The {@link PostTexts} of a thread's posts, in one walk of each outermost post: every block of a
 * long thread may be judged, and reading each one's post anew made it quadratic.
 */
function postTexts(posts: ReadonlySet<Element>): PostTexts {
  const postOf = new Map<Element, Element>();
  const chars = new Map<Element, number>();
  const unlinked = new Map<Element, number>();
  const order: Element[] = [];
  // In document order, an outer post before the posts nested in it, which its walk reaches.
  for (const outer of posts) {
    if (postOf.has(outer)) continue;
    const stack: Array<[Element, Element]> = [[outer, outer]];
    while (stack.length > 0) {
      const [el, around] = stack.pop() as [Element, Element];
      const post = posts.has(el) ? el : around;
      postOf.set(el, post);
      order.push(el);
      for (let child = el.lastElementChild; child !== null; child = child.previousElementSibling)
        stack.push([child, post]);
    }
  }
  // Children before parents: each element's own text, then its children's (a link's, all linked).
  for (let i = order.length - 1; i >= 0; i--) {
    const el = order[i] as Element;
    let all = 0;
    for (let node = el.firstChild; node !== null; node = node.nextSibling)
      if (node.nodeType === TEXT_NODE) all += visibleChars((node as CharacterData).data);
    let free = all;
    for (let child = el.firstElementChild; child !== null; child = child.nextElementSibling) {
      all += chars.get(child) ?? 0;
      free += unlinked.get(child) ?? 0;
    }
    chars.set(el, all);
    unlinked.set(el, el.localName.toLowerCase() === 'a' ? 0 : free);
  }
  return { postOf, chars, unlinked };
}

const TEXT_NODE = 3;
