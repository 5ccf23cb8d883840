/**
 * The chrome inside the posts of a forum thread, which the reader of a thread skips: the statistics
 * of the poster's info panel (`Posts: 4032`, `Joined: Dec 11, 2021`; phpBB's `postprofile`,
 * vBulletin's `userinfo`, XenForo's `message-userExtras`), the row of buttons under or over each post
 * (`Reply with quote`, `Quote`, `Report`, `Link to comment`, `Share on other sites`; also as the
 * headings of a post's share menu, as Invision writes them), the counters microdata marks beside
 * each post (votes, comments, likes, its place: see COUNTER_PROP, LABELLED_COUNT), post-number
 * permalinks (`#3`), signatures (the `signature` blocks of phpBB, vBulletin, XenForo, SMF and
 * Invision) and `Last edited by ...` notes (MyBB's `(This post was last modified: ...)`). Every
 * rule needs the pattern repeated on the page (a thread has several posts), so an article with one
 * `Share` link or one `Posts: 3` line keeps it. Where a panel alone names its post's poster, the
 * post is marked with the name first (see markPosters).
 */

import { visibleChars } from './content.js';
import { itemScopeOf } from './dom-facts.js';
import { BLOCK, blockText, squash, unwrap, walkElements } from './text.js';

/** Counters of a poster's info panel: the label and a number. */
const STAT_COUNT =
  /^(?:posts|messages|reputation|reaction score|reactions?|likes(?: received)?|points|threads|topics|solutions|trophies|trophy points|karma|credits|thanks|rep(?: power)?|kudos)\s*:?\s*[\d.,]+\s*[km]?$/i;
/** The labels of a poster's statistics, alone (`Join Date` over its value) or after a number (`28 posts`). */
const STAT_LABEL =
  /^(?:[\d.,]+\s*[km]?\s+)?(?:posts|messages|reputation|reaction score|reactions?|likes(?: received)?|points|threads|topics|solutions|trophies|trophy points|karma|credits|thanks|kudos|joined|join date|registered|member since|location|gender|age|occupation)$/i;
/** Dates of a poster's info panel: the label and a short value with a digit. */
const STAT_DATE = /^(?:joined|join date|registered|member since)\s*:?\s*(?=[^\d]{0,20}\d).{1,30}$/i;
/** Kept unless the panel is confirmed by a counter or a date above. */
const STAT_OTHER = /^(?:location|from|gender|age|occupation)\s*:\s*.{1,40}$/i;
/**
 * The buttons of a post, alone or in a row (`Quote | Reply`): each a whole line, matched whole.
 * Many engines write them in links and spans rather than `<button>`s.
 */
const ACTION_WORD =
  '(?:reply(?: with quote)?|quote|multi-?quote|\\+ ?quote|report(?: post| abuse)?|flag|share(?: on other sites| post)?|link to (?:comment|post)|permalink|like|bookmark|back to top|post reply|print view)';
// A gap between two buttons is read one way only: with an optional separator, the blanks around
// it could be split between two \s* in exponentially many ways ('like like … x', seconds a line).
const ACTION_ROW = new RegExp(`^${ACTION_WORD}(?:(?:\\s*[|·•]\\s*|\\s*)${ACTION_WORD})*$`, 'i');
/** The number of a post, a link to it: `#3`, `Post #3`. */
const POST_NUMBER = /^(?:post\s*)?#\s?\d{1,6}$/i;
/** An edit note under a post's text. */
const EDIT_NOTE =
  /^(?:(?:last )?edited(?: by| on| at|:)\s.{1,100}|\(?this post was last (?:modified|edited)[:\s].{1,120})$/i;
/**
 * A link to a post's edit page (Stack Exchange's `/posts/12068/edit` under `Improve this answer`,
 * phpBB's `posting.php?mode=edit`, vBulletin's `editpost.php?do=editpost`): a button of each post,
 * whatever its words.
 */
const EDIT_LINK = /^[^?#]*\/edit(?:post)?\/?(?:[?#]|$)|[?&](?:mode|action|do)=edit(?:post)?(?:[&#]|$)/i;
/** Signature blocks by the class and id conventions of common forum engines. */
const SIGNATURE_CLASS = /(?:^|[\s_-])(?:signature|[a-z]+Signature)(?:$|[\s_-])/;
const SIGNATURE_ID = /^sig(?:nature)?[_-]?\d+$/i;
/**
 * Parts of a poster's panel that forum engines mark by class, besides its name: XenForo's rank
 * (`userTitle`), banners (`userBanner`), extras (`message-userExtras`: location, real name) and
 * letter avatars (`message-avatar`); phpBB's `profile-rank` and the definitions (rank, statistics)
 * of its `postprofile` list, whose term is the name; vBulletin's and PunBB's `usertitle`;
 * Discourse's `user-title`. Also XenForo's `Click to expand...` under a long quote
 * (`bbCodeBlock-expandLink`). Matched as whole class tokens, case and all.
 */
const PANEL_CLASS =
  /(?:^|\s)(userTitle|userBanner|message-userExtras|message-avatar|profile-rank|usertitle|user-title|bbCodeBlock-expandLink)(?=\s|$)/;
/**
 * A count that schema.org microdata marks as one of a post's (`itemprop="upvoteCount"` on Stack
 * Exchange's vote tally, `commentCount`, `answerCount`; `userInteractionCount` of an
 * `InteractionCounter`), or a post's place in the thread (`position`, Discourse's crawler view;
 * see POST_ITEM): shown as a bare number beside each post, it is no part of what anyone wrote.
 */
const COUNTER_PROP = /^(?:upvoteCount|downvoteCount|commentCount|answerCount|userInteractionCount|interactionCount)$/;
/**
 * The schema.org types of a post, whose `position` is its place in a thread; the `position` of a
 * ranked list's item (`ListItem`: `1` before a chart's first film) is the page's own.
 */
const POST_ITEM = /schema\.org\/(?:Comment|Answer|Question|DiscussionForumPosting|SocialMediaPosting)$/i;
/** A counter's text: a number, maybe abbreviated (`1,024`, `3.4k`). */
const BARE_COUNT = /^[\d.,]+\s*[km]?$/i;
/**
 * An `interactionStatistic` (a schema.org `InteractionCounter`, as Discourse's crawler view writes one
 * under each post): the number with a word or two, `79 Likes`, `3 replies`, `1.2k views`.
 */
const LABELLED_COUNT = /^[\d.,]+\s*[km]?(?:\s+\p{L}+){0,2}$/iu;
/** Only elements with at most this much text are read line by line (cheap, and lines are short). */
const MAX_LINE_CHARS = 140;
/**
 * A statistic shown in this many panels confirms them alone (`Posts: 6217` in each post), when it
 * can only be a poster's (not `Points` or `Likes`, which a leaderboard or a feed shows too).
 */
const MIN_PANELS = 3;
const POSTER_STAT =
  /^(?:posts|messages|joined|join date|registered|member since|reputation|reaction score|trophy points)$/;
/** A signature holding more than this share of the root's text is the content itself. */
const MAX_SIGNATURE_SHARE = 0.3;

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'title', 'code', 'pre', 'kbd', 'samp']);
const HEADINGS = /^h[1-6]$/;

type Kind = 'count' | 'date' | 'other' | 'action' | 'number' | 'edit' | 'signature' | 'panel' | 'counter' | 'tally';
/** What {@link kindOf} makes of an element; `labels` are the statistics a block of lines gives. */
interface Found {
  kind: Kind;
  key: string;
  labels?: readonly string[];
}

/** What {@link dropPostChrome} removed, and whom the thread's first poster panel names. */
export interface PostChrome {
  removed: number;
  /**
   * The name that opens the first of two or more posters' info panels (`chunix64` over `Member`,
   * `Registered: 2025-11-01`, `Posts: 1`): the thread's starter; null when there is none.
   */
  firstPoster: string | null;
  /** How many posts were marked with their poster's name (see markPosters). */
  marked: number;
}

/**
 * Removes post chrome (see the module comment) from `root`; says how many blocks were removed, who
 * opens the first poster's panel, and how many posts it marked with their posters (see markPosters).
 * Panel statistics go when at least two kinds of counters or dates are found, or one kind
 * {@link MIN_PANELS} times; buttons, post numbers, edit notes, counters and panel parts marked by
 * class when the same kind occurs at least twice; signatures when there are at least two, or one in a thread
 * whose posts are marked with their posters (`data-author`).
 */
export function dropPostChrome(root: Element): PostChrome {
  const quoted = markQuotedPosters(root);
  const found: Array<Found & { el: Element }> = [];
  const { lengths, shown, visible: total } = textLengths(root);
  // In document order; a matched element's descendants are not looked at.
  walkElements(root, (el) => {
    const name = el.localName.toLowerCase();
    if (SKIP.has(name)) return false;
    const kind = kindOf(el, name, total, lengths.get(el) ?? 0);
    if (kind === null) return true;
    found.push({ el, ...kind });
    return false;
  });
  const counts = new Map<string, number>();
  const statLabels = new Set<string>();
  const numbers = new Set<number>();
  for (const f of found) {
    counts.set(f.key, (counts.get(f.key) ?? 0) + 1);
    if (f.kind === 'count' || f.kind === 'date') for (const label of f.labels ?? [f.key]) statLabels.add(label);
    if (f.kind === 'number') numbers.add(Number(f.key.slice(1)));
  }
  // A poster's panel shows two statistics at least (posts and a join date), or one in each of
  // several posts (`Posts: 6217` only); a page with one `Joined Feb 1999` line is a profile or a shop.
  const panels =
    statLabels.size >= 2 ||
    Array.from(statLabels).some((l) => POSTER_STAT.test(l) && (counts.get(l) ?? 0) >= MIN_PANELS);
  // Posts are numbered in sequence; other `#123` links (issues, tags) are not.
  const numbered = Array.from(numbers).some((n) => numbers.has(n + 1));
  const firstPoster = panels ? firstPanelName(found, shown) : null;
  const marked = quoted + (panels ? markPosters(found, shown) : 0);
  // A thread's posts are marked with their posters (by the engine, or above): its one signature is one.
  const thread =
    marked > 0 || (found.some((f) => f.kind === 'signature') && root.querySelector('[data-author]') !== null);
  let removed = 0;
  for (const f of found) {
    const keep =
      f.kind === 'count' || f.kind === 'date' || f.kind === 'other'
        ? !panels
        : f.kind === 'number'
          ? !numbered
          : (f.kind === 'signature' && thread) || f.kind === 'tally'
            ? false
            : (counts.get(f.key) ?? 0) < 2;
    if (!keep) {
      f.el.remove();
      removed++;
    }
  }
  return { removed, firstPoster, marked };
}

/**
 * A poster's panel (name, rank, statistics) holds at most this many visible characters (see
 * visibleChars): counted as `textContent` counts them, the indentation of phpBB's panels took
 * 240 to 320 of them, and the panels of longer names or ranks were not found.
 */
const MAX_PANEL_CHARS = 300;
/** A user name: one to four words, no colon or bar (`Registered: …`, `Quote | Reply`). */
const POSTER_NAME = /^[^\s:|]{2,}(?: [^\s:|]+){0,3}$/u;
const MAX_POSTER_NAME_CHARS = 40;

/**
 * The name opening the first poster's panel, when its first statistic's label (`Posts`) comes again
 * further on (a second panel: a thread, not a profile); null otherwise (see panelOf, panelName).
 */
function firstPanelName(found: ReadonlyArray<Found & { el: Element }>, shown: Map<Element, number>): string | null {
  const stats = found.filter((f) => f.kind === 'count' || f.kind === 'date');
  const first = stats[0];
  const second = stats.find((f) => f !== first && f.key === first?.key);
  if (first === undefined || second === undefined) return null;
  return panelName(panelOf(first.el, [second.el], shown));
}

/**
 * The panel around a statistic: the largest block around it with at most {@link MAX_PANEL_CHARS}
 * visible characters (`shown`, see textLengths) that reaches neither neighbour (the same statistic
 * of the panels before and after) and opens with a user name (see panelName); without such a
 * block, the largest one. A short post is within the bound with its panel, and the block around
 * both opens with the post's date (`2nd April 2025, 13:59 #2`), not the poster.
 */
function panelOf(stat: Element, neighbours: ReadonlyArray<Element | undefined>, shown: Map<Element, number>): Element {
  let panel = stat;
  let named: Element | null = null;
  for (
    let up = panel.parentElement;
    up !== null &&
    (shown.get(up) ?? Number.POSITIVE_INFINITY) <= MAX_PANEL_CHARS &&
    !neighbours.some((n) => n !== undefined && up?.contains(n));
    up = up.parentElement
  ) {
    panel = up;
    if (panelName(panel) !== null) named = panel;
  }
  return named ?? panel;
}

/** A panel's first line, when it looks like a user name (the poster's); null otherwise. */
function panelName(panel: Element): string | null {
  const name = firstLine(panel);
  const looksLikeName =
    name.length <= MAX_POSTER_NAME_CHARS &&
    POSTER_NAME.test(name) &&
    /\p{L}/u.test(name) &&
    ![STAT_COUNT, STAT_LABEL, STAT_DATE, STAT_OTHER, ACTION_ROW, POST_NUMBER, EDIT_NOTE].some((pattern) =>
      pattern.test(name),
    );
  return looksLikeName ? name : null;
}

/**
 * Marks each post of a thread whose poster is named only in an info panel (MyBB, phpBB, vBulletin)
 * with `data-author`, as XenForo and Discourse mark theirs, before the panel's statistics go: the
 * reader drops the panel's name (a link) with them, and restorePostHeaders gives it back. The post
 * is the largest block around the panel that holds no other panel. Only when two posts or more are
 * so found, none marked already; returns how many were marked.
 */
function markPosters(found: ReadonlyArray<Found & { el: Element }>, shown: Map<Element, number>): number {
  const stats = found.filter((f) => f.kind === 'count' || f.kind === 'date');
  const panels: Element[] = [];
  // The same statistic of the panels before and after each one, found in one pass each way.
  const before: Array<Element | undefined> = [];
  const after: Array<Element | undefined> = [];
  const seen = new Map<string, Element>();
  stats.forEach((stat, i) => {
    before[i] = seen.get(stat.key);
    seen.set(stat.key, stat.el);
  });
  seen.clear();
  for (let i = stats.length - 1; i >= 0; i--) {
    const stat = stats[i] as Found & { el: Element };
    after[i] = seen.get(stat.key);
    seen.set(stat.key, stat.el);
  }
  // How many panels each element holds, itself included: a panel inside or around one found
  // before is the same panel, and a post is the largest block around its panel that holds no other.
  // (Asked of every panel in turn, it took time growing with the square of the posts.)
  const held = new Map<Element, number>();
  const panelsIn = (el: Element): number => held.get(el) ?? 0;
  const isPanel = new Set<Element>();
  const inPanel = (el: Element): boolean => {
    for (let up = el.parentElement; up !== null; up = up.parentElement) if (isPanel.has(up)) return true;
    return false;
  };
  stats.forEach((stat, i) => {
    const panel = panelOf(stat.el, [before[i], after[i]], shown);
    if (panelsIn(panel) > 0 || inPanel(panel)) return;
    panels.push(panel);
    isPanel.add(panel);
    for (let el: Element | null = panel; el !== null; el = el.parentElement) held.set(el, panelsIn(el) + 1);
  });
  const posts: Array<{ post: Element; name: string }> = [];
  for (const panel of panels) {
    const name = panelName(panel);
    if (name === null) continue;
    let post = panel;
    for (let up = post.parentElement; up !== null && panelsIn(up) < 2; up = up.parentElement) post = up;
    if (!markedAlready(post)) posts.push({ post, name });
  }
  return markAll(posts);
}

/** Whether a post, or a block in or around it, is marked with its poster already (`data-author`). */
function markedAlready(post: Element): boolean {
  return post.closest('[data-author]') !== null || post.querySelector('[data-author]') !== null;
}

/** Marks each post with its poster when there are two or more (one is no thread); returns how many. */
function markAll(posts: ReadonlyArray<{ post: Element; name: string }>): number {
  if (posts.length < 2) return 0;
  for (const { post, name } of posts) post.setAttribute('data-author', name);
  return posts.length;
}

/**
 * Marks each post of an Invision Community thread with its poster: Invision names the poster of
 * each post only in its panel (dropped by the reader with its link) and in the JSON its quote
 * button copies (`data-quotedata='{"username":"ron1cne","timestamp":…}'`) on the post's wrapper.
 * Only when two posts or more name one, none marked already; returns how many were marked.
 */
function markQuotedPosters(root: Element): number {
  const posts: Array<{ post: Element; name: string }> = [];
  for (const post of Array.from(root.querySelectorAll('[data-quotedata]'))) {
    if (markedAlready(post)) continue;
    let name: unknown;
    try {
      name = (JSON.parse(post.getAttribute('data-quotedata') ?? '') as { username?: unknown }).username;
    } catch {
      continue;
    }
    if (typeof name === 'string' && POSTER_NAME.test(name.trim()) && name.trim().length <= MAX_POSTER_NAME_CHARS) {
      posts.push({ post, name: name.trim() });
    }
  }
  return markAll(posts);
}

/** The first non-blank text of an element, whitespace squashed. */
function firstLine(el: Element): string {
  const stack: Node[] = [el];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node.nodeType === TEXT_NODE) {
      const text = squash((node as CharacterData).data);
      if (text !== '') return text;
      continue;
    }
    if (node.nodeType !== ELEMENT_NODE || SKIP.has((node as Element).localName.toLowerCase())) continue;
    const children = Array.from(node.childNodes);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Node);
  }
  return '';
}

/**
 * What kind of post chrome `el` is, if any. `length` is its text's length as `textContent` counts
 * it (see textLengths): a container's text is not read again at every level of it.
 */
function kindOf(el: Element, name: string, total: number, length: number): Found | null {
  const cls = el.getAttribute('class');
  const id = el.getAttribute('id');
  if ((cls !== null && cls.length < 200 && SIGNATURE_CLASS.test(cls)) || (id !== null && SIGNATURE_ID.test(id))) {
    const chars = visibleChars(el.textContent ?? '');
    if (chars <= MAX_SIGNATURE_SHARE * total) return { kind: 'signature', key: 'signature' };
  }
  if (cls !== null && cls.length < 200) {
    // One pass over the class, no split: every element of every page is asked.
    const token = PANEL_CLASS.exec(cls)?.[1];
    if (token !== undefined && visibleChars(el.textContent ?? '') <= MAX_PANEL_CHARS) {
      return { kind: 'panel', key: `panel:${token}` };
    }
  }
  // A heading is chrome only as a post's button or menu (`Share on other sites` over its links).
  const heading = HEADINGS.test(name);
  // Lines only: an element with a long text is a container, looked into; one without is nothing.
  if (length > MAX_LINE_CHARS * 4 || length === 0) return null;
  const raw = el.textContent ?? '';
  const text = raw.replace(/\s+/g, ' ').trim();
  if (text.length === 0 || text.length > MAX_LINE_CHARS) return null;
  if (heading) {
    if (ACTION_ROW.test(text)) return { kind: 'action', key: `action:${text.toLowerCase()}` };
    return isTallyHeading(el, text) ? { kind: 'tally', key: 'tally' } : null;
  }
  if (name === 'a' && EDIT_LINK.test(el.getAttribute('href') ?? '') && !inSentence(el)) {
    return { kind: 'action', key: 'action:edit' };
  }
  if (STAT_COUNT.test(text)) return { kind: 'count', key: statLabel(text) };
  if (STAT_DATE.test(text)) return { kind: 'date', key: statLabel(text) };
  if (STAT_OTHER.test(text)) return { kind: 'other', key: statLabel(text) };
  if (ACTION_ROW.test(text)) return { kind: 'action', key: `action:${text.toLowerCase()}` };
  if (POST_NUMBER.test(text) && (name === 'a' || el.querySelector('a') !== null)) {
    return { kind: 'number', key: `#${text.replace(/\D/g, '')}` };
  }
  if (EDIT_NOTE.test(text)) return { kind: 'edit', key: 'edit' };
  const prop = el.getAttribute('itemprop');
  if (prop !== null && COUNTER_PROP.test(prop) && BARE_COUNT.test(text))
    return { kind: 'counter', key: `counter:${prop}` };
  if (prop === 'position' && BARE_COUNT.test(text) && isPostItem(el))
    return { kind: 'counter', key: 'counter:position' };
  if (prop === 'interactionStatistic' && LABELLED_COUNT.test(text)) return { kind: 'counter', key: `counter:${prop}` };
  // phpBB's panel is a list: the name its term, the rank and other lines its definitions (the
  // statistics among them are found by the rules above, for the panels' count).
  if (
    name === 'dd' &&
    /(?:^|\s)postprofile(?:\s|$)/.test(el.parentElement?.getAttribute('class') ?? '') &&
    length <= MAX_PANEL_CHARS
  ) {
    return { kind: 'panel', key: 'panel:postprofile' };
  }
  return statLines(el);
}

/**
 * Whether a link is a part of a sentence: its parent has words of its own (`we have compiled a
 * <a href="…/edit">spreadsheet</a> to help`), not only the link and separators.
 */
function inSentence(link: Element): boolean {
  for (let node = link.parentElement?.firstChild ?? null; node !== null; node = node.nextSibling) {
    if (node.nodeType === TEXT_NODE && /[\p{L}\p{N}]/u.test((node as CharacterData).data)) return true;
  }
  return false;
}

/**
 * Whether a heading (its squashed `text`) is the tally of the posts under it, its number marked as
 * their count (see COUNTER_PROP): Stack Exchange's `<h2>2 Answers <span itemprop="answerCount">2</span></h2>`
 * over the answers. It says what the thread shows; the count is marked, whatever the page's language.
 */
function isTallyHeading(el: Element, text: string): boolean {
  const counter = Array.from(el.querySelectorAll('[itemprop]')).find((c) =>
    COUNTER_PROP.test(c.getAttribute('itemprop') ?? ''),
  );
  if (counter === undefined) return false;
  const count = squash(counter.textContent ?? '');
  const at = count === '' ? -1 : text.lastIndexOf(count);
  const label = at < 0 ? text : squash(text.slice(0, at) + text.slice(at + count.length));
  return LABELLED_COUNT.test(label);
}

/** Whether the microdata item a property of `el` belongs to (see itemScopeOf) is a post (see POST_ITEM). */
function isPostItem(el: Element): boolean {
  const item = itemScopeOf(el);
  return item !== null && POST_ITEM.test((item.getAttribute('itemtype') ?? '').trim());
}

/**
 * A poster's statistics written as lines parted by `<br>` in one element (MyBB's
 * `author_statistics`: `Posts: 116<br>Threads: 23<br>Joined: Feb 2019`): two lines at least, each
 * a counter, a date or another panel line, one a counter or a date. Null for anything else.
 */
function statLines(el: Element): Found | null {
  // Most elements have no <br> among their children: looked for before any text is read.
  let br = false;
  for (let child = el.firstElementChild; child !== null && !br; child = child.nextElementSibling) {
    br = child.localName.toLowerCase() === 'br';
  }
  if (!br) return null;
  const lines: string[] = [];
  let line = '';
  for (let child = el.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === ELEMENT_NODE) {
      const tag = (child as Element).localName.toLowerCase();
      if (tag === 'br') {
        lines.push(line);
        line = '';
        continue;
      }
      if (BLOCK.has(tag)) return null;
    }
    line += ` ${child.textContent ?? ''}`;
  }
  lines.push(line);
  const stats = lines.map(squash).filter((l) => l !== '');
  if (stats.length < 2 || !stats.every((l) => STAT_COUNT.test(l) || STAT_DATE.test(l) || STAT_OTHER.test(l)))
    return null;
  if (!stats.some((l) => STAT_COUNT.test(l) || STAT_DATE.test(l))) return null;
  const labels = stats.map(statLabel);
  return { kind: 'count', key: `lines:${labels.join(',')}`, labels };
}

/**
 * The length of each element's `textContent` under `root` (`lengths`), its visible characters (see
 * visibleChars; `shown`), and the root's, from one pass over its nodes: every element of the page
 * is looked at, and reading the text of each container at every level of it took 40% of this
 * module's time.
 */
function textLengths(root: Element): { lengths: Map<Element, number>; shown: Map<Element, number>; visible: number } {
  const lengths = new Map<Element, number>();
  const shown = new Map<Element, number>();
  // Post-order without recursion: an element's length is known once its last child's is.
  const stack: Array<{ el: Element; child: Node | null; sum: number; seen: number }> = [
    { el: root, child: root.firstChild, sum: 0, seen: 0 },
  ];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const node = top.child;
    if (node === null) {
      stack.pop();
      lengths.set(top.el, top.sum);
      shown.set(top.el, top.seen);
      const up = stack[stack.length - 1];
      if (up) {
        up.sum += top.sum;
        up.seen += top.seen;
      }
      continue;
    }
    top.child = node.nextSibling;
    if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_NODE) {
      const data = (node as CharacterData).data;
      top.sum += data.length;
      top.seen += visibleChars(data);
    } else if (node.nodeType === ELEMENT_NODE) {
      stack.push({ el: node as Element, child: node.firstChild, sum: 0, seen: 0 });
    }
  }
  return { lengths, shown, visible: shown.get(root) ?? 0 };
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_NODE = 4;

/** The label of a statistic line, lower-cased: `Posts: 12` → `posts`. */
function statLabel(text: string): string {
  return (/^[^\d:]*/.exec(text)?.[0] ?? '').trim().toLowerCase();
}

/** Body text outside `<noscript>` below which a page is an empty shell its scripts would fill. */
const MAX_SHELL_CHARS = 400;
/** ...and the text its `<noscript>` must hold to be shown instead (crawler versions of app pages). */
const MIN_NOSCRIPT_CHARS = 1_000;

/**
 * Pages built by scripts (Flarum, some Discourse and single-page apps) send crawlers their content
 * inside `<noscript>` and show an empty shell otherwise: when the body's text outside `<noscript>`
 * is tiny and one `<noscript>` holds elements with much more text, that `<noscript>` is unwrapped
 * (its children take its place). Returns whether one was.
 */
export function revealNoscriptContent(doc: Document): boolean {
  const body = doc.body;
  if (!body) return false;
  const blocks = Array.from(body.getElementsByTagName('noscript'));
  if (blocks.length === 0) return false;
  let best: Element | null = null;
  let bestChars = 0;
  let inside = 0;
  for (const el of blocks) {
    if (el.firstElementChild === null) continue;
    const chars = visibleChars(el.textContent ?? '');
    inside += chars;
    if (chars > bestChars) {
      best = el;
      bestChars = chars;
    }
  }
  if (best === null || bestChars < MIN_NOSCRIPT_CHARS) return false;
  const outside = visibleChars(body.textContent ?? '') - inside - scriptChars(body);
  if (outside > MAX_SHELL_CHARS) return false;
  if (best.parentNode === null) return false;
  unwrap(best);
  return true;
}

/** Text inside scripts and styles (counted by textContent, not shown). */
function scriptChars(body: Element): number {
  let n = 0;
  for (const el of Array.from(body.querySelectorAll('script, style, template'))) {
    n += visibleChars(el.textContent ?? '');
  }
  return n;
}

/** `<article>` elements a page must hold, none inside another, to be read as a thread of posts. */
const MIN_POSTS = 3;
/** How near the largest `<article>` must be to Readability's text, as a share of it, to be that text. */
const SAME_SIZE_SHARE = 0.25;

/**
 * The visible sizes of the page's outermost `<article>` elements, largest first: read before
 * Readability edits the document, for {@link isOnePostOfMany}.
 */
export function outerArticleSizes(doc: Document): number[] {
  return Array.from(doc.getElementsByTagName('article'))
    .filter((el) => el.parentElement?.closest('article') == null)
    .map((el) => visibleChars(el.textContent ?? ''))
    .sort((a, b) => b - a);
}

/**
 * Whether Readability's text, of `articleChars`, is one post of a thread that writes each post as
 * an `<article>` (`sizes`, see {@link outerArticleSizes}): the page holds several, the largest is
 * that text, and the others hold more than it. Such a thread's `og:type` of `article` is the site's
 * default, not a promise that one article is the page.
 */
export function isOnePostOfMany(sizes: readonly number[], articleChars: number): boolean {
  const largest = sizes[0];
  if (sizes.length < MIN_POSTS || largest === undefined || articleChars === 0) return false;
  const others = sizes.slice(1).reduce((sum, n) => sum + n, 0);
  return Math.abs(largest - articleChars) < SAME_SIZE_SHARE * articleChars && others >= articleChars;
}

/** A post whose text does not name its poster (or give its date) this early has lost its header. */
const POSTER_WINDOW_CHARS = 120;
/** Where a post shows its date: a `<time>`, or XenForo 1's `DateTime` (a `<span>` or `<abbr>`). */
const POST_DATE_ELEMENT = 'time, .DateTime';
/** A post's date as shown (`Sep 21, 2024`, `2 hours ago`): short, with a digit. */
const POST_DATE = /^(?=.*\d).{4,40}$/;

/**
 * The date each post of a thread shows, by the post's `id`: the text of its first `<time>` (or
 * XenForo 1's `DateTime`). Read before the reader runs, which drops the post's header (see
 * {@link restorePostHeaders}).
 */
export function postDates(doc: Document): Map<string, string> {
  const dates = new Map<string, string>();
  for (const post of Array.from(doc.querySelectorAll('[data-author][id]'))) {
    const shown = squash(post.querySelector(POST_DATE_ELEMENT)?.textContent ?? '');
    if (POST_DATE.test(shown)) dates.set(post.getAttribute('id') ?? '', shown);
  }
  return dates;
}

/**
 * Gives back each post of a thread the header the reader dropped: Readability drops XenForo's
 * `message-cell--user` (a link and a picture) and its `message-attribution` (the date), and the
 * main region drops a post's `<header>` as page chrome. Forum engines mark each post with its
 * poster (`<article data-author="Chris Hall" id="js-post-1">`); a post of two or more so marked in
 * `root` whose text does not open with that name, or with its date from `dates` (see
 * {@link postDates}), gets them as its first paragraph (`Chris Hall · Sep 21, 2024`). Returns how
 * many posts got one.
 */
export function restorePostHeaders(root: Element, dates: ReadonlyMap<string, string>): number {
  // Replies may nest in the post they answer; a quote is a post's text, whoever it names.
  const posts = Array.from(root.querySelectorAll('[data-author]')).filter((el) => el.closest('blockquote') === null);
  if (posts.length < 2) return 0;
  let restored = 0;
  for (const post of posts) {
    const name = squash(post.getAttribute('data-author') ?? '');
    if (!POSTER_NAME.test(name) || name.length > MAX_POSTER_NAME_CHARS) continue;
    const opening = squash(post.textContent ?? '').slice(0, POSTER_WINDOW_CHARS);
    const date = dates.get(post.getAttribute('id') ?? '') ?? '';
    const header = [name, date].filter((part) => part !== '' && !opening.includes(part));
    if (header.length === 0) continue;
    const line = post.ownerDocument.createElement('p');
    line.textContent = header.join(' · ');
    post.insertBefore(line, post.firstChild);
    restored++;
  }
  return restored;
}

/** A post's opening this long holds its header: the poster's name and the post's date. */
const POST_OPENING_CHARS = 300;

/**
 * The opening text of a thread's first post marked with its poster (`data-author`, not a quote's):
 * where its date is written (`by Minoa » Tue Aug 27, 2019 5:58 am`); '' when there is none.
 */
export function firstPostOpening(doc: Document): string {
  const post = Array.from(doc.querySelectorAll('[data-author]')).find((el) => el.closest('blockquote') === null);
  return post ? squash(blockText(post).slice(0, POST_OPENING_CHARS * 2)).slice(0, POST_OPENING_CHARS) : '';
}
