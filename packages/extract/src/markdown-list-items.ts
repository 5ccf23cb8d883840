import { PostProcessResult, type TranslatorConfigFactory } from 'node-html-markdown';
import { FOOTNOTE_NOTE_ATTRIBUTE } from './footnotes.js';
import { appendChildrenOf, unwrap } from './text.js';

/**
 * A fenced code block in a list item's markdown, from its opening fence line to the closing one;
 * group 1 is the opening line's indentation, group 2 the fence.
 */
const FENCED_BLOCK = /^([^\S\n]*)(`{3,}|~{3,})[^\n]*\n(?:[^\n]*\n)*?[^\S\n]*\2[^\S\n]*$/gm;
/** A block quote in a list item's markdown (Sphinx sets a command's example in one): its run of `>` lines. */
const QUOTE_BLOCK = /^([^\S\n]*)>[^\n]*(?:\n[^\S\n]*>[^\n]*)*$/gm;
/**
 * A table in a list item's markdown: a row between pipes, a delimiter row under it, then the rows
 * after; group 1 is the first row's indentation.
 */
const TABLE_BLOCK = /^([^\S\n]*)\|[^\n]*\n[^\S\n]*\|(?:[^\S\n]*:?-+:?[^\S\n]*\|)+[^\S\n]*(?:\n[^\S\n]*\|[^\n]*)*$/gm;
/** Where a code block was set aside: its number between two NULs (never in converted text). */
const PLACEHOLDER = /[^\S\n]*\n?[^\S\n]*\u0000(\d+)\u0000[^\S\n]*(?:\n|$)/g;

/**
 * node-html-markdown's list item, but for its column and the code blocks in it. Its own indents an
 * item two spaces a level, short of the three its content takes after `1. `, where CommonMark ends
 * the ordered list; here an item stands at the content column of the items it is nested in (the
 * widths of their markers), numbered from its list's `start`. Its own joins an item's lines with
 * hard breaks (`  ` at each line's end), which does for a paragraph; a code block got the hard
 * breaks inside it, lost its blank lines, and stood at the item's left edge, where a fence ends the
 * list: the steps of an install guide read as a list cut in two around code with spaces added to
 * every line; so did a block quote. Here each code block and quote is set aside first and put back
 * whole, indented to the item's content column, and the item's lines after the first go to that
 * column too, so that what follows a block stays in the item.
 */
export const listItem: TranslatorConfigFactory = ({ node, options: { bulletMarker } }) => {
  const item = node as unknown as ListNode;
  const marker = markerOf(item, bulletMarker);
  // Nested in other items, the item stands at their content's column (the width of their markers).
  let column = 0;
  for (let at = item.parentNode; at; at = at.parentNode)
    if (at.tagName === 'LI') column += markerOf(at, bulletMarker).length;
  const prefix = ' '.repeat(column) + marker;
  return {
    prefix,
    surroundingNewlines: 1,
    postprocess: ({ content }) => {
      if (!/\S/.test(content)) return PostProcessResult.RemoveNode;
      const blocks: SetAside[] = [];
      const setAside = (block: string, own: string, at: number, apart = '\n'): string => {
        // The item's own block comes unindented; a nested item's comes placed in that item already.
        blocks.push({ text: own === '' ? indentLines(block, prefix.length, at === 0) : block, apart });
        return `\u0000${blocks.length - 1}\u0000`;
      };
      // Quotes first: a code block in a quote goes with the quote. A table stands between blank
      // lines: a line of text under it would be read as one more row.
      const text = content
        .trim()
        .replace(QUOTE_BLOCK, (block: string, own: string, at: number) => setAside(block, own, at))
        .replace(FENCED_BLOCK, (block: string, own: string, _fence: string, at: number) => setAside(block, own, at))
        .replace(TABLE_BLOCK, (block: string, own: string, at: number) => setAside(block, own, at, '\n\n'));
      // The converter's own joining, for everything else (see its `li` translator). A line indented
      // to the item's column or further is a nested item's, placed already: indented again at each
      // level, its lines grew with the square of the depth (250 levels of 20,000 paragraphs asked
      // for more than a string can hold).
      const indent = ' '.repeat(prefix.length);
      const joined = text
        .replace(LINE_AFTER_LINE, (_: string, last: string, spaces: string, rule: string | undefined, at: number) => {
          if (spaces.length >= indent.length) return `${last}  \n`;
          // The item's own line after a nested item's (placed already, so indented to the item's
          // column at least) stands apart from it: joined, it read as more of the nested item's text.
          const lineStart = text.lastIndexOf('\n', at) + 1;
          const nested = text.startsWith(indent, lineStart);
          return `${last}${rule === undefined && !nested ? '  \n' : '\n\n'}${indent}`;
        })
        // The blanks ending a line after its last word become a hard break's two spaces (the
        // converter's own `(\S+?)[^\S\r\n]+$` tried every word of every line, a word's length each).
        .replace(/(\S)[^\S\r\n]+$/gm, '$1  ');
      const parted = partNestedStarts(joined, prefix.length);
      if (blocks.length === 0) return parted;
      return parted
        .replace(PLACEHOLDER, (_: string, i: string, at: number) => {
          const { text, apart } = blocks[Number(i)] as SetAside;
          return `${at === 0 ? '' : apart}${text}${apart}`;
        })
        .trimEnd();
    },
  };
};

/**
 * A line break in a list item's markdown, and the line after it (group 2 its indentation), unless
 * that line opens a nested item (a marker, then a space): the item's lines are joined there. Group
 * 3 is the line when it is a thematic break (`---`), which needs a blank line above it: under a
 * line of text it would make that line a heading. The converter's own pattern kept every line
 * starting with `-`, `*` or `+` from the join, so a paragraph in emphasis (`*The problems…*`, a
 * quoted reply) or one starting `+1` stood at the left edge and ended the list, and the lines
 * after it, indented, read as code.
 */
const LINE_AFTER_LINE =
  /([^\r\n])(?:\r?\n)+(?!\s*(?:[-*+]|\d+\.)\s)(?=([^\S\r\n]*)((?:-{3,}|\*{3,}|_{3,})[^\S\r\n]*(?:\r?\n|$))?)/g;

/** A block of a list item set aside while its lines are joined, and what parts it from them. */
interface SetAside {
  text: string;
  apart: string;
}

/** A list item's node as node-html-markdown hands it over (node-html-parser's element). */
interface ListNode {
  tagName?: string;
  parentNode?: ListNode | null;
  childNodes?: readonly ListNode[];
  getAttribute?: (name: string) => string | undefined | null;
}

/** The largest number markdown lets an ordered list start at (nine digits, CommonMark). */
const MAX_START = 999_999_999;

/**
 * The marker that opens a list item: a footnote's note (footnotes.ts) as markdown defines a
 * footnote, `3. ` in an ordered list (its `start`, see {@link startOf}, plus the items before it),
 * else the bullet.
 */
function markerOf(item: ListNode, bullet: string): string {
  const note = item.getAttribute?.(FOOTNOTE_NOTE_ATTRIBUTE);
  if (note) return `[^${note}]: `;
  const list = item.parentNode;
  if (list?.tagName !== 'OL') return `${bullet} `;
  const before = (list.childNodes ?? []).slice(0, (list.childNodes ?? []).indexOf(item));
  return `${startOf(list) + before.filter((n) => n.tagName === 'LI').length}. `;
}

/**
 * The number an ordered list starts at: its `start` attribute (`<ol start="3">`, steps continued
 * after a picture), else 1. The converter counted every list from 1. A start markdown cannot write
 * (negative, or past nine digits) counts from 1.
 */
function startOf(list: ListNode): number {
  const attribute = list.getAttribute?.('start');
  const start = typeof attribute === 'string' && /^\s*\d+\s*$/.test(attribute) ? Number(attribute) : Number.NaN;
  return Number.isInteger(start) && start + 1_000 <= MAX_START ? start : 1;
}

/**
 * A line, then an ordered item at least as far in: group 3 is the item's number. The line's words
 * are looked for after the match: `[^\n]*\S[^\n]*` backtracks over every line the square of its
 * length (0.9% of all extraction time on the Readability pages).
 */
const LINE_THEN_ORDERED = /^([^\n]*)\n( *)(\d{1,9})(?=[.)] )/gm;
/** A list item's first line (its marker, then a space). */
const ITEM_LINE = /^\s*(?:[-*+]|\d{1,9}[.)])\s/;

/**
 * A blank line between an item's text and the ordered list nested under it when that list starts
 * past 1 (`1. Step` then `   3. alpha`): CommonMark lets only a list starting at 1 interrupt a
 * paragraph, and read `3. alpha` on as the text of `Step`. `column` is where the item's content
 * stands, which its first line (given without the marker) is at.
 */
function partNestedStarts(content: string, column: number): string {
  return content.replace(
    LINE_THEN_ORDERED,
    (whole: string, text: string, indent: string, start: string, at: number) => {
      // A blank line ends a paragraph; a code block or quote set aside (see PLACEHOLDER) is none.
      if (Number(start) === 1 || !/\S/.test(text) || ITEM_LINE.test(text) || text.includes('\u0000')) return whole;
      const textColumn = at === 0 ? column : text.length - text.trimStart().length;
      return indent.length >= textColumn ? `${text}\n\n${indent}${start}` : whole;
    },
  );
}

/** `block` with `by` more spaces before each line; the first kept as it is when `keepFirst`. */
function indentLines(block: string, by: number, keepFirst: boolean): string {
  const pad = ' '.repeat(by);
  return block
    .split('\n')
    .map((line, i) => (line === '' || (keepFirst && i === 0) ? line : pad + line))
    .join('\n');
}

/**
 * The most list items, or block quotes, the markdown nests. Each level indents all it holds, so a
 * page of 20,000 paragraphs 250 items deep wrote 15 MB of spaces and took a minute; the 1,458 shared
 * pages nest items 8 deep at most (a menu's) and quotes 3.
 */
export const MAX_MARKDOWN_NESTING = 16;

/**
 * Lays out flat (edits `root`) the lists nested in more than {@link MAX_MARKDOWN_NESTING} items and
 * the block quotes in more than as many quotes: their items become blocks of the item around them,
 * and the quotes' text part of the quote around them. Returns how many lists and quotes were so laid out.
 */
export function flattenDeepNesting(root: Element): number {
  const lists: Element[] = [];
  const quotes: Element[] = [];
  const stack: Array<{ el: Element; items: number; quotes: number }> = [{ el: root, items: 0, quotes: 0 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    for (let child = next.el.lastElementChild; child !== null; child = child.previousElementSibling) {
      const name = child.localName.toLowerCase();
      const items = next.items + (name === 'li' ? 1 : 0);
      const quoted = next.quotes + (name === 'blockquote' ? 1 : 0);
      if ((name === 'ul' || name === 'ol') && next.items >= MAX_MARKDOWN_NESTING) lists.push(child);
      if (name === 'blockquote' && quoted > MAX_MARKDOWN_NESTING) quotes.push(child);
      stack.push({ el: child, items, quotes: quoted });
    }
  }
  const doc = root.ownerDocument;
  for (const list of lists) {
    for (const item of Array.from(list.children)) {
      if (item.localName.toLowerCase() !== 'li') continue;
      const block = doc.createElement('div');
      appendChildrenOf(item, block);
      item.replaceWith(block);
    }
    unwrap(list);
  }
  for (const quote of quotes) unwrap(quote);
  return lists.length + quotes.length;
}
