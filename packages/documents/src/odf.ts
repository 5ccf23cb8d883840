import { parseTimestamp } from '@quarry/core';
import { XMLParser } from 'fast-xml-parser';
import { strFromU8 } from 'fflate';
import { markdownTable, quoted } from './markdown-table.js';
import type { ZipEntries } from './ooxml.js';
import type { DocumentContent, DocumentMetadata } from './types.js';

/** The OpenDocument kinds, by the package's `mimetype` entry (templates read as documents). */
export type OdfKind = 'odt' | 'odp' | 'ods';

const KIND_BY_MIMETYPE: Readonly<Record<string, OdfKind>> = {
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.text-template': 'odt',
  'application/vnd.oasis.opendocument.text-master': 'odt',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/vnd.oasis.opendocument.presentation-template': 'odp',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.spreadsheet-template': 'ods',
};

/** The kind of an OpenDocument package, or null when the zip is not one. */
export function odfKind(entries: ZipEntries): OdfKind | null {
  const mimetype = entries.mimetype;
  if (!mimetype || mimetype.length > 100) return null;
  return KIND_BY_MIMETYPE[strFromU8(mimetype).trim()] ?? null;
}

/** An element of content.xml as fast-xml-parser gives it with `preserveOrder`. */
type XmlNode = Record<string, unknown>;

const xml = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  // Spaces between inline elements are words' separators.
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
});

/** Elements whose text is not the document's: change tracking (deleted text), comments, indexes. */
const SKIPPED = new Set([
  'text:tracked-changes',
  'office:annotation',
  'office:annotation-end',
  'text:table-of-content',
  'text:illustration-index',
  'text:table-index',
  'text:alphabetical-index',
  'text:user-index',
  'text:bibliography',
  'text:sequence-decls',
  'text:variable-decls',
  'text:user-field-decls',
  'office:forms',
  'svg:title',
  'svg:desc',
  'presentation:notes',
  'office:scripts',
  'office:font-face-decls',
  'office:automatic-styles',
]);

type Block =
  | { readonly kind: 'heading'; readonly level: number; readonly text: string }
  | { readonly kind: 'paragraph'; readonly text: string }
  | { readonly kind: 'item'; readonly depth: number; readonly text: string }
  | { readonly kind: 'table'; readonly rows: string[][]; readonly textRows: string[][] };

/**
 * Walks content.xml into blocks: headings with their outline level, paragraphs, list items with
 * their depth, tables as rows of cells; footnotes collected apart. Text boxes anchored in a
 * paragraph follow it. Stops once `maxChars` of text are gathered.
 */
class BlockReader {
  readonly blocks: Block[] = [];
  readonly notes: string[] = [];
  #chars = 0;

  constructor(private readonly maxChars: number) {}

  get full(): boolean {
    return this.#chars >= this.maxChars;
  }

  read(nodes: readonly XmlNode[], listDepth = 0): void {
    for (const node of nodes) {
      if (this.full) return;
      const name = nameOf(node);
      if (name === null || name === '#text' || SKIPPED.has(name)) continue;
      const children = childrenOf(node, name);
      switch (name) {
        case 'text:h':
          this.#textBlock(children, (text) => ({ kind: 'heading', level: outlineLevel(node), text }));
          break;
        case 'text:p':
          this.#textBlock(children, (text) =>
            listDepth > 0 ? { kind: 'item', depth: listDepth, text } : { kind: 'paragraph', text },
          );
          break;
        case 'text:list':
          for (const item of children) this.read(childrenOf(item, nameOf(item)), listDepth + 1);
          break;
        case 'table:table':
          this.#table(children);
          break;
        default:
          // Sections, frames, text boxes, shapes, groups and anything unknown: their content.
          this.read(children, listDepth);
      }
    }
  }

  #textBlock(children: readonly XmlNode[], block: (text: string) => Block): void {
    const frames: XmlNode[] = [];
    const text = this.#inline(children, frames)
      .replace(/[ \t]+/g, ' ')
      .trim();
    if (text !== '') {
      this.blocks.push(block(text));
      this.#chars += text.length;
    }
    if (frames.length > 0) this.read(frames);
  }

  /** A paragraph's text; frames met inside it (text boxes, captions) are handed back in `frames`. */
  #inline(nodes: readonly XmlNode[], frames: XmlNode[]): string {
    let out = '';
    for (const node of nodes) {
      const name = nameOf(node);
      if (name === null || SKIPPED.has(name)) continue;
      if (name === '#text') {
        // ODF collapses white space in text like XML's normalisation; spaces are text:s elements.
        out += String(node['#text'] ?? '').replace(/[\t\n\r ]+/g, ' ');
        continue;
      }
      switch (name) {
        case 'text:s':
          out += ' '.repeat(Math.min(Number(attribute(node, 'text:c') ?? 1) || 1, 100));
          break;
        case 'text:tab':
          out += '\t';
          break;
        case 'text:line-break':
          out += '\n';
          break;
        case 'text:note': {
          const body = childrenOf(node, name).find((child) => nameOf(child) === 'text:note-body');
          const reader = new BlockReader(this.maxChars);
          if (body) reader.read(childrenOf(body, 'text:note-body'));
          const note = reader.blocks.map(blockText).join(' ');
          if (note !== '') this.notes.push(note);
          break;
        }
        case 'draw:frame':
        case 'draw:custom-shape':
        case 'draw:g':
          frames.push(node);
          break;
        default:
          out += this.#inline(childrenOf(node, name), frames);
      }
    }
    return out;
  }

  /**
   * A table as rows of cells, or, when it lays the document out (see isLayout), as its cells'
   * blocks in order. A merged cell stands in its columns as in a Word table's markdown (a cell
   * spanning rows written again in each, one spanning columns followed by empty cells), so that no
   * value slides under another column; in the text each cell is written once.
   */
  #table(children: readonly XmlNode[]): void {
    const cells: Block[][][] = [];
    const rows: string[][] = [];
    const textRows: string[][] = [];
    // Column → the text of a cell spanning rows and how many rows below it still covers.
    const carried = new Map<number, { text: string; rows: number }>();
    const walk = (nodes: readonly XmlNode[]): void => {
      for (const node of nodes) {
        if (this.full) return;
        const name = nameOf(node);
        if (name === 'table:table-row') {
          const row: string[] = [];
          const textRow: string[] = [];
          const blocks: Block[][] = [];
          for (const child of childrenOf(node, name)) {
            const kind = nameOf(child);
            const column = row.length;
            if (kind === 'table:covered-table-cell') {
              const above = carried.get(column);
              row.push(above?.text ?? '');
              if (above && --above.rows === 0) carried.delete(column);
              continue;
            }
            if (kind !== 'table:table-cell') continue;
            const reader = new BlockReader(this.maxChars - this.#chars);
            reader.read(childrenOf(child, kind));
            const text = reader.blocks.map(blockText).join(' ');
            blocks.push(reader.blocks);
            row.push(text);
            textRow.push(text);
            const below = spanOf(child, 'table:number-rows-spanned') - 1;
            if (below > 0) carried.set(column, { text, rows: below });
          }
          cells.push(blocks);
          // Trailing empty cells (a sheet's repeated blank columns) say nothing.
          while (row.length > 0 && row[row.length - 1] === '') row.pop();
          while (textRow.length > 0 && textRow[textRow.length - 1] === '') textRow.pop();
          if (row.length > 0) {
            rows.push(row);
            textRows.push(textRow);
            this.#chars += textRow.join(' ').length;
          }
        } else if (name !== null && name !== '#text' && name !== 'table:table-column') {
          // Header rows, row groups.
          walk(childrenOf(node, name));
        }
      }
    };
    walk(children);
    if (isLayout(cells)) this.blocks.push(...cells.flat(2));
    else if (rows.length > 0) this.blocks.push({ kind: 'table', rows, textRows });
  }
}

/** Text (characters) of a cell that is an article rather than a value, in two blocks or more. */
const MAX_CELL_CHARS = 500;

/**
 * Whether a table, as its rows of cells of blocks, lays the document out rather than holding data,
 * by the rules a Word table is read by (extract's layout-tables.ts): it holds a table, it has one
 * row or one column, a cell of it holds a heading, or a cell holds over {@link MAX_CELL_CHARS}
 * characters in two blocks or more (an article in a column).
 */
function isLayout(rows: readonly (readonly Block[][])[]): boolean {
  const cells = rows.flat();
  if (rows.length <= 1 || rows.every((row) => row.length <= 1)) return true;
  return cells.some(
    (blocks) =>
      blocks.some((block) => block.kind === 'table' || block.kind === 'heading') ||
      (blocks.length >= 2 && blocks.reduce((sum, block) => sum + blockText(block).length, 0) > MAX_CELL_CHARS),
  );
}

/** A span attribute's value: a whole number from 1 to 1,000, else 1. */
function spanOf(node: XmlNode, name: string): number {
  const n = Number.parseInt(attribute(node, name) ?? '', 10);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, 1_000) : 1;
}

function nameOf(node: XmlNode | undefined): string | null {
  if (!node) return null;
  for (const key of Object.keys(node)) if (key !== ':@') return key;
  return null;
}

function childrenOf(node: XmlNode | undefined, name: string | null): readonly XmlNode[] {
  const children = name === null ? undefined : node?.[name];
  return Array.isArray(children) ? (children as XmlNode[]) : [];
}

function attribute(node: XmlNode, name: string): string | undefined {
  const attributes = node[':@'] as Record<string, unknown> | undefined;
  const value = attributes?.[name];
  return typeof value === 'string' ? value : undefined;
}

function outlineLevel(node: XmlNode): number {
  const level = Number(attribute(node, 'text:outline-level') ?? 1);
  return Number.isInteger(level) && level >= 1 ? Math.min(level, 6) : 1;
}

function blockText(block: Block): string {
  return block.kind === 'table' ? block.textRows.map((row) => row.join('\t')).join('\n') : block.text;
}

function blockMarkdown(block: Block): string {
  switch (block.kind) {
    case 'heading':
      return `${'#'.repeat(block.level)} ${block.text}`;
    case 'item':
      return `${'  '.repeat(block.depth - 1)}- ${block.text}`;
    case 'table':
      return markdownTable(block.rows);
    default:
      return block.text;
  }
}

/** Blocks as text (a blank line between blocks, list items on consecutive lines) and Markdown. */
function render(blocks: readonly Block[], notes: readonly string[]): { text: string; markdown: string } {
  const join = (parts: (block: Block) => string): string => {
    let out = '';
    blocks.forEach((block, i) => {
      const previous = blocks[i - 1];
      if (i > 0) out += block.kind === 'item' && previous?.kind === 'item' ? '\n' : '\n\n';
      out += parts(block);
    });
    return notes.length > 0 ? `${out}\n\n${notes.join('\n\n')}` : out;
  };
  return { text: join(blockText), markdown: join(blockMarkdown) };
}

function parseContent(entries: ZipEntries): readonly XmlNode[] {
  const content = entries['content.xml'];
  if (!content) throw new Error('not an OpenDocument package: no content.xml');
  return xml.parse(strFromU8(content)) as XmlNode[];
}

/** The children of `office:document-content > office:body > office:<kind>`. */
function bodyOf(document: readonly XmlNode[], kind: 'office:text' | 'office:presentation'): readonly XmlNode[] {
  const root = document.find((node) => nameOf(node) === 'office:document-content');
  const body = childrenOf(root, 'office:document-content').find((node) => nameOf(node) === 'office:body');
  const part = childrenOf(body, 'office:body').find((node) => nameOf(node) === kind);
  return childrenOf(part, kind);
}

/** An OpenDocument text (.odt): headings, paragraphs, lists and tables; footnotes at the end. */
export function readOdt(entries: ZipEntries, maxChars: number): DocumentContent {
  const reader = new BlockReader(maxChars);
  reader.read(bodyOf(parseContent(entries), 'office:text'));
  return { ...render(reader.blocks, reader.notes), ...odfMetadata(entries) };
}

/**
 * An OpenDocument presentation (.odp): each slide's text, then its speaker notes; in Markdown one
 * `##` section per slide, its first line the heading (as for .pptx).
 */
export function readOdp(entries: ZipEntries, maxChars: number): DocumentContent {
  const texts: string[] = [];
  const sections: string[] = [];
  let chars = 0;
  for (const page of bodyOf(parseContent(entries), 'office:presentation')) {
    if (nameOf(page) !== 'draw:page' || chars >= maxChars) continue;
    const children = childrenOf(page, 'draw:page');
    const slide = new BlockReader(maxChars - chars);
    slide.read(children);
    const notes = new BlockReader(maxChars - chars);
    for (const child of children) {
      if (nameOf(child) === 'presentation:notes') notes.read(childrenOf(child, 'presentation:notes'));
    }
    if (slide.blocks.length + notes.blocks.length === 0) continue;
    const shown = render(slide.blocks, []);
    const said = render(notes.blocks, []);
    const text = [shown.text, said.text].filter((t) => t !== '').join('\n\n');
    texts.push(text);
    const [heading = '', ...rest] = shown.markdown === '' ? [] : shown.markdown.split('\n\n');
    // The notes a quote under the slide, as a .pptx's are (pptx.ts).
    const quote = said.markdown === '' ? [] : [quoted(said.markdown)];
    sections.push(
      [...(shown.markdown === '' ? [] : [`## ${heading.replace(/^#+ |^- /, '')}`]), ...rest, ...quote].join('\n\n'),
    );
    chars += text.length;
  }
  return { text: texts.join('\n\n'), markdown: sections.join('\n\n'), ...odfMetadata(entries) };
}

/**
 * Title, author and creation date from meta.xml. The author is the initial creator: ODF's
 * `dc:creator` is whoever saved it last, taken only when the first is missing.
 */
export function odfMetadata(entries: ZipEntries): DocumentMetadata {
  const none: DocumentMetadata = { title: null, author: null, published_at: null };
  const meta = entries['meta.xml'];
  if (!meta) return none;
  try {
    const fields = new Map<string, string>();
    const collect = (nodes: readonly XmlNode[]): void => {
      for (const node of nodes) {
        const name = nameOf(node);
        if (name === null || name === '#text') continue;
        const children = childrenOf(node, name);
        const text = children
          .filter((child) => nameOf(child) === '#text')
          .map((child) => String(child['#text'] ?? ''))
          .join('')
          .trim();
        if (text !== '' && !fields.has(name)) fields.set(name, text.slice(0, 1_000));
        collect(children);
      }
    };
    collect(xml.parse(strFromU8(meta)) as XmlNode[]);
    return {
      title: fields.get('dc:title') ?? null,
      author: fields.get('meta:initial-creator') ?? fields.get('dc:creator') ?? null,
      published_at: parseTimestamp(fields.get('meta:creation-date') ?? fields.get('dc:date') ?? null),
    };
  } catch {
    return none;
  }
}
