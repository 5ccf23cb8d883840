import { PostProcessResult, type TranslatorConfigFactory } from 'node-html-markdown';
import { FOOTNOTE_NOTE_ATTRIBUTE } from './footnotes.js';

/**
 * A fenced code block in a list item's markdown, from its opening fence line to the closing one;
 * group 1 is the opening line's indentation, group 2 the fence.
 */
const FENCED_BLOCK = /^([^\S\n]*)(`{3,}|~{3,})[^\n]*\n(?:[^\n]*\n)*?[^\S\n]*\2[^\S\n]*$/gm;
/** A block quote in a list item's markdown (Sphinx sets a command's example in one): its run of `>` lines. */
const QUOTE_BLOCK = /^([^\S\n]*)>[^\n]*(?:\n[^\S\n]*>[^\n]*)*$/gm;
/** Where a code block was set aside: its number between two NULs (never in converted text). */
const PLACEHOLDER = /[^\S\n]*\n?[^\S\n]*\u0000(\d+)\u0000[^\S\n]*(?:\n|$)/g;

/**
 * node-html-markdown's list item, but for the code blocks in it. Its own joins an item's lines with
 * hard breaks (`  ` at each line's end) and indents them only by the list's nesting, which does for
 * a paragraph. A code block got the hard breaks inside it, lost its blank lines, and stood at the
 * item's left edge, where a fence ends the list: the steps of an install guide read as a list cut
 * in two around code with spaces added to every line; so did a block quote. Here each code block
 * and quote is set aside first and put back whole, indented to the item's content (the width of its
 * marker), and the item's lines after the first go to that column too, so that what follows a block
 * stays in the item.
 */
export const listItem: TranslatorConfigFactory = ({
  node,
  options: { bulletMarker, indent },
  indentLevel,
  listKind,
  listItemNumber,
}) => {
  const level = Number(indentLevel ?? 0);
  // A footnote's note (footnotes.ts) is written as markdown defines a footnote.
  const note = node.getAttribute(FOOTNOTE_NOTE_ATTRIBUTE);
  const marker = note
    ? `[^${note}]: `
    : listKind === 'OL' && listItemNumber !== undefined
      ? `${listItemNumber}. `
      : `${bulletMarker} `;
  const prefix = indent.repeat(level) + marker;
  return {
    prefix,
    surroundingNewlines: 1,
    postprocess: ({ content }) => {
      if (!/\S/.test(content)) return PostProcessResult.RemoveNode;
      const blocks: string[] = [];
      const setAside = (block: string, own: string, at: number): string => {
        // The item's own block comes unindented; a nested item's comes placed in that item, which moves with the rest.
        blocks.push(indentLines(block, own === '' ? prefix.length : marker.length, at === 0));
        return `\u0000${blocks.length - 1}\u0000`;
      };
      // Quotes first: a code block in a quote goes with the quote.
      const text = content
        .trim()
        .replace(QUOTE_BLOCK, (block: string, own: string, at: number) => setAside(block, own, at))
        .replace(FENCED_BLOCK, (block: string, own: string, _fence: string, at: number) => setAside(block, own, at));
      // The converter's own joining, for everything else (see its `li` translator).
      const joined = text
        .replace(/([^\r\n])(?:\r?\n)+(?!\s*[-*+]|\s*\d+\.|\s*\|)/g, `$1  \n${indent.repeat(level)}`)
        .replace(/(\S+?)[^\S\r\n]+$/gm, '$1  ');
      if (blocks.length === 0) return joined;
      // After a code block, a line at the list's edge would end the item: every line of the item
      // goes to its content's column (nested items too, which stay nested).
      const shift = ' '.repeat(marker.length);
      return joined
        .split('\n')
        .map((line, i) => (i === 0 || line.trim() === '' || line.includes('\u0000') ? line : shift + line))
        .join('\n')
        .replace(PLACEHOLDER, (_: string, i: string, at: number) => `${at === 0 ? '' : '\n'}${blocks[Number(i)]}\n`)
        .trimEnd();
    },
  };
};

/** `block` with `by` more spaces before each line; the first kept as it is when `keepFirst`. */
function indentLines(block: string, by: number, keepFirst: boolean): string {
  const pad = ' '.repeat(by);
  return block
    .split('\n')
    .map((line, i) => (line === '' || (keepFirst && i === 0) ? line : pad + line))
    .join('\n');
}
