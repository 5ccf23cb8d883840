import { appendChildrenOf, BLOCK, unwrap } from './text.js';

/**
 * Cards written as one link around blocks (`<a href><img><h3>Name</h3><p>$14</p></a>`, a shop's
 * product, a team member, a related article) lose their structure in markdown: a link holds only
 * inline text, so the converter ran the card into one line (`[![Name](img) Name $14](/p)`), its
 * heading gone. Each such link becomes its card's blocks, with the link on the card's title: its
 * heading of the highest rank, else the run of inline text around its first words, else its first
 * picture (`![Name](img)`, `### [Name](/p)`, `$14`). Returns how many links were so written.
 */
export function linkCardTitles(root: Element): number {
  let changed = 0;
  for (const card of Array.from(root.getElementsByTagName('a'))) {
    if (!card.hasAttribute('href') || !holdsBlock(card)) continue;
    const link = card.ownerDocument.createElement('a');
    for (const name of ['href', 'title']) {
      const value = card.getAttribute(name);
      if (value !== null) link.setAttribute(name, value);
    }
    const title = headingOf(card);
    if (title !== null) {
      appendChildrenOf(title, link);
      title.appendChild(link);
    } else {
      wrapFirstRun(card, link);
    }
    unwrap(card);
    changed++;
  }
  return changed;
}

const isBlock = (node: Node): boolean => node.nodeType === 1 && BLOCK.has((node as Element).localName);

function holdsBlock(el: Element): boolean {
  for (let child = el.firstElementChild; child !== null; child = child.nextElementSibling) {
    if (BLOCK.has(child.localName) || holdsBlock(child)) return true;
  }
  return false;
}

/** The card's heading of the highest rank that shows text (the first of them). */
function headingOf(card: Element): Element | null {
  let best: Element | null = null;
  for (const el of Array.from(card.querySelectorAll('h1, h2, h3, h4, h5, h6'))) {
    if ((el.textContent ?? '').trim() === '') continue;
    if (best === null || el.localName < best.localName) best = el;
  }
  return best;
}

/** The card's first text with words, in document order; else its first picture. */
function firstShown(card: Element): Node | null {
  let picture: Node | null = null;
  const stack: Node[] = [];
  for (let c = card.lastChild; c !== null; c = c.previousSibling) stack.push(c);
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node.nodeType === 3 && (node.nodeValue ?? '').trim() !== '') return node;
    if (node.nodeType !== 1) continue;
    if ((node as Element).localName === 'img') picture ??= node;
    for (let c = node.lastChild; c !== null; c = c.previousSibling) stack.push(c);
  }
  return picture;
}

/**
 * Moves into `link` the run of inline nodes around the card's first words (see firstShown): the
 * nodes beside them, up to a block on either side, in the block that holds them.
 */
function wrapFirstRun(card: Element, link: Element): void {
  const first = firstShown(card);
  if (first === null) return;
  let at: Node = first;
  while (at.parentNode !== card && !isBlock(at.parentNode as Node)) at = at.parentNode as Node;
  let from = at;
  while (from.previousSibling !== null && !isBlock(from.previousSibling)) from = from.previousSibling;
  let to = at;
  while (to.nextSibling !== null && !isBlock(to.nextSibling)) to = to.nextSibling;
  from.parentNode?.insertBefore(link, from);
  for (let node: Node | null = from; node !== null; ) {
    const next: Node | null = node === to ? null : node.nextSibling;
    link.appendChild(node);
    node = next;
  }
}
