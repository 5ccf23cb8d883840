import { strFromU8 } from 'fflate';
import { escapeLineStart, markdownTable, quoted } from './markdown-table.js';
import type { ZipEntries } from './ooxml.js';
import { decodeXml } from './xml-text.js';

/** One slide of a .pptx, its speaker notes included, as text and as a Markdown section. */
export interface PptxSlide {
  text: string;
  markdown: string;
}

const SLIDE_PATH = /^ppt\/(slides\/slide|notesSlides\/notesSlide)(\d+)\.xml$/;
/**
 * Placeholders whose text the layout fills in on every slide: the slide number, date, footer and
 * header, and on a notes page the picture of its slide.
 */
const FILLED_IN = new Set(['sldNum', 'dt', 'ftr', 'hdr', 'sldImg']);
const TITLES = new Set(['title', 'ctrTitle']);

/**
 * The slides of a .pptx in order, each with its speaker notes (`notesSlideN` belongs to slide N):
 * the text in the order of the slide's shapes, a table's rows as lines of cells; the Markdown a
 * section under the slide's title (its first line when it has no title placeholder), its tables as
 * tables and its notes as a quote. Slide numbers, dates, footers and headers are left out.
 * Reading stops once `maxChars` of text is read.
 */
export function pptxSlides(entries: ZipEntries, maxChars: number): PptxSlide[] {
  const parts = Object.keys(entries)
    .map((path) => ({ path, match: SLIDE_PATH.exec(path) }))
    .filter((s): s is { path: string; match: RegExpExecArray } => s.match !== null)
    .map(({ path, match }) => ({ path, n: Number(match[2]), notes: match[1] !== 'slides/slide' }))
    .sort((a, b) => a.n - b.n || Number(a.notes) - Number(b.notes));
  if (parts.length === 0 && !entries['ppt/presentation.xml']) throw new Error('not a PowerPoint package');
  const slides: Array<{ n: number; shapes: Shape[]; notes: Shape[] }> = [];
  let total = 0;
  for (const part of parts) {
    if (total >= maxChars) break;
    const data = entries[part.path];
    if (!data) continue;
    const shapes = slideShapes(strFromU8(data));
    total += shapes.reduce((n, s) => n + s.lines.join('\n').length, 0);
    const last = slides.at(-1);
    // Notes follow their slide; notes of a slide that is not there stand as a slide of their own.
    if (part.notes && last?.n === part.n) last.notes.push(...shapes);
    else slides.push({ n: part.n, shapes: part.notes ? [] : shapes, notes: part.notes ? shapes : [] });
  }
  return slides.map(({ shapes, notes }) => ({
    text: slideText(shapes, notes),
    markdown: slideMarkdown(shapes, notes),
  }));
}

interface Shape {
  kind: 'title' | 'text' | 'table';
  /** Paragraphs, or for a table its rows with their cells parted by tabs. */
  lines: string[];
  rows?: string[][];
}

function slideText(shapes: readonly Shape[], notes: readonly Shape[]): string {
  return [...shapes, ...notes].flatMap((s) => s.lines).join('\n');
}

function slideMarkdown(shapes: readonly Shape[], notes: readonly Shape[]): string {
  const title = shapes.find((s) => s.kind === 'title');
  const rest = shapes.filter((s) => s !== title);
  const blocks = rest.flatMap((s) =>
    s.kind === 'table' && s.rows !== undefined ? [markdownTable(s.rows)] : s.lines.map(escapeLineStart),
  );
  const heading = title?.lines.join(' ') ?? (rest[0]?.kind === 'table' ? undefined : blocks.shift());
  const noteLines = notes.flatMap((s) => s.lines).map(escapeLineStart);
  return [
    ...(heading === undefined ? [] : [`## ${heading.replace(/\n/g, ' ')}`]),
    ...blocks,
    ...(noteLines.length > 0 ? [quoted(noteLines.join('\n\n'))] : []),
  ].join('\n\n');
}

/**
 * The shapes of a slide (`<p:sp>`, and `<p:graphicFrame>` holding a table) in order, without the
 * filled-in placeholders (see {@link FILLED_IN}). A part without shapes is read as its paragraphs.
 * Each shape ends at the first closing tag after it, found once (see {@link drawingMLText}).
 */
function slideShapes(source: string): Shape[] {
  const shapes: Shape[] = [];
  const open = /<p:(sp|graphicFrame)\b[^<>]*>/g;
  let found = false;
  for (let m = open.exec(source); m !== null; m = open.exec(source)) {
    const close = `</p:${m[1]}>`;
    const end = source.indexOf(close, open.lastIndex);
    if (end < 0) break;
    found = true;
    open.lastIndex = end + close.length;
    const shape = source.slice(m.index, end);
    const rows = m[1] === 'graphicFrame' ? tableRows(shape) : [];
    if (rows.length > 0) {
      shapes.push({ kind: 'table', lines: rows.map((row) => row.join('\t')), rows });
      continue;
    }
    const placeholder = /<p:ph\b[^<>]*?\btype="([A-Za-z]+)"/.exec(shape)?.[1] ?? '';
    if (FILLED_IN.has(placeholder)) continue;
    const lines = drawingMLText(shape);
    if (lines.length > 0) shapes.push({ kind: TITLES.has(placeholder) ? 'title' : 'text', lines });
  }
  if (found) return shapes;
  const lines = drawingMLText(source);
  return lines.length > 0 ? [{ kind: 'text', lines }] : [];
}

/** The rows of a DrawingML table (`<a:tbl>`), each cell's paragraphs joined with a space. */
function tableRows(source: string): string[][] {
  return elements(source, 'a:tr').map((row) => elements(row, 'a:tc').map((cell) => drawingMLText(cell).join(' ')));
}

/** The insides of each `<tag>` element of `source`, not nested, each to the first close after it. */
function elements(source: string, tag: string): string[] {
  const found: string[] = [];
  const open = new RegExp(`<${tag}\\b[^<>]*>`, 'g');
  const close = `</${tag}>`;
  for (let m = open.exec(source); m !== null; m = open.exec(source)) {
    const end = source.indexOf(close, open.lastIndex);
    if (end < 0) break;
    found.push(source.slice(open.lastIndex, end));
    open.lastIndex = end + close.length;
  }
  return found;
}

/**
 * Paragraphs (`<a:p>`) of DrawingML, their runs (`<a:t>`) joined and trimmed (a line break a
 * `\n`), blank ones left out. A
 * paragraph ends at the first `</a:p>` after it, found once: a lazy `[\s\S]*?` looked for it again
 * from every unclosed `<a:p>` to the end of the slide (quadratic: 1 MB of them took 23 s). Tags are
 * not read past the next `<` for the same reason (1 MB of `<a:t ` took 71 s). The blanks around a
 * line break are trimmed line by line: a pattern of blanks, then a break, was tried from every
 * blank of a run without one (100 KB of spaces in a run took 14 s, 200 KB 59 s).
 */
function drawingMLText(source: string): string[] {
  return elements(source, 'a:p')
    .map((paragraph) =>
      // A line break (`<a:br>`) inside a paragraph parts its words.
      [...paragraph.matchAll(/<a:t(?:\s[^<>]*)?>([^<]*)<\/a:t>|<a:br\b/g)]
        .map((r) => (r[0].startsWith('<a:br') ? '\n' : decodeXml(r[1] ?? '')))
        .join('')
        .split('\n')
        .map((line) => line.trim())
        .join('\n')
        .trim(),
    )
    .filter((line) => line !== '');
}
