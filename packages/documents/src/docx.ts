import { XMLValidator } from 'fast-xml-parser';
import { strFromU8, strToU8 } from 'fflate';
import { ooxmlCoreProperties, rezip, type ZipEntries } from './ooxml.js';
import type { DocumentContent } from './types.js';
import { decodeXml } from './xml-text.js';

const WORD_MAIN = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/**
 * A document part larger than this is read by its paragraphs, as far as the text limit, not by
 * mammoth: its DOM of a 44 MB part (about 4 MB zipped) did not fit the extraction worker's 512 MB
 * heap, and a part this large holds more text than is kept (a 11 MB part held 2 million characters).
 */
const LARGE_DOCUMENT_PART_BYTES = 8 * 1024 * 1024;

/**
 * Parts mammoth cannot do without once a document refers to them, written empty when the package's
 * own is not well-formed: a missing styles part made it fail on the first table style.
 */
const EMPTY_PARTS: Readonly<Record<string, string>> = {
  'word/styles.xml': `<w:styles xmlns:w="${WORD_MAIN}"/>`,
  'word/numbering.xml': `<w:numbering xmlns:w="${WORD_MAIN}"/>`,
};

/**
 * Reads a Word package (OOXML) as HTML with mammoth, then as a page's content is read: headings,
 * lists, tables and footnotes kept. A package some writer got partly wrong is read all the same:
 * its helper parts that are not well-formed XML (the content types, relationships, styles) are
 * left out or written empty first, and when mammoth still fails, the paragraphs of the document
 * part are read directly ({@link paragraphsHtml}: text and headings, no lists or tables). A very
 * large document part is read so from the start ({@link leadingParagraphsHtml}), its text cut at
 * `maxTextChars`.
 */
export async function readDocx(entries: ZipEntries, maxTextChars: number): Promise<DocumentContent> {
  const main = entries['word/document.xml'];
  if (!main) throw new Error('not a Word package');
  const [{ default: mammoth }, { htmlDocument }] = await Promise.all([import('mammoth'), import('@quarry/extract')]);
  if (main.length > LARGE_DOCUMENT_PART_BYTES) {
    // Its text will be cut anyway: its first paragraphs are kept, where mammoth ran out of memory.
    const html = leadingParagraphsHtml(main, maxTextChars);
    if (html !== '') return { ...htmlDocument(html), ...ooxmlCoreProperties(entries) };
  }
  let html: string;
  try {
    // Word's structure (headings, lists, tables, footnotes) as HTML, read as a page's content is:
    // mammoth's own Markdown writer kept bookmarks as raw `<a id>` tags and wrote `**bold **`, and
    // its raw text wrote each cell of a table as a paragraph of its own. The text and the markdown
    // come from the one reading, so a table laying the document out is unwrapped in both.
    html = (
      await mammoth.convertToHtml(
        { buffer: Buffer.from(rezip(withDropCapsJoined(wellFormedParts(entries)))) },
        { styleMap: DOCX_STYLES, convertImage: mammoth.images.imgElement(async () => ({ src: '' })) },
      )
    ).value;
  } catch (error) {
    html = paragraphsHtml(strFromU8(main));
    if (html === '') throw error;
  }
  return { ...htmlDocument(dropBlankImages(html)), ...ooxmlCoreProperties(entries) };
}

/**
 * What mammoth's default styles leave out: the document's title (style `Title`) is its first
 * heading, and a table of contents' lines (styles `TOC 1`, `toc 2`, …: each heading again with its
 * page number) are left out, since the headings are there.
 */
const DOCX_STYLES = ["p[style-name='Title'] => h1:fresh", "p[style-name^='TOC'] => !", "p[style-name^='toc'] => !"];

/** Images, which the reader keeps no source for. */
function dropBlankImages(html: string): string {
  return html.replace(/<img src=""[^>]*>/g, '');
}

/**
 * The package with its XML parts other than the document itself checked: one that is not
 * well-formed is written empty (styles, numbering) or left out (content types, relationships,
 * settings), where mammoth read it and failed on the whole document; a missing styles part is
 * written empty too.
 */
export function wellFormedParts(entries: ZipEntries): ZipEntries {
  const checked: ZipEntries = {};
  for (const [name, bytes] of Object.entries(entries)) {
    if (name === 'word/document.xml' || !/\.(?:xml|rels)$/i.test(name) || bytes.length === 0) {
      checked[name] = bytes;
      continue;
    }
    if (XMLValidator.validate(strFromU8(bytes)) === true) checked[name] = bytes;
    else if (EMPTY_PARTS[name] !== undefined) checked[name] = strToU8(EMPTY_PARTS[name]);
  }
  // Missing is read as broken: mammoth looks a style up there whatever the relationships say.
  checked['word/styles.xml'] ??= strToU8(EMPTY_PARTS['word/styles.xml'] ?? '');
  return checked;
}

/**
 * A drop cap (`<w:framePr w:dropCap="drop">`, the big first letter of a section) is a paragraph of
 * its own in Word's XML, holding the letter only: read so, `Drop caps are used` came out as `D`,
 * then `rop caps are used` (and searched as `rop`). Its runs are moved into the paragraph after it.
 */
const DROP_CAP =
  /<w:p\b(?:(?!<\/w:p>)[\s\S])*?<w:framePr\b[^>]*\bw:dropCap="(?:drop|margin)"[^>]*>(?:(?!<\/w:p>)[\s\S])*?<\/w:pPr>((?:(?!<\/w:p>)[\s\S])*?)<\/w:p>\s*(<w:p\b[^>]*>(?:\s*<w:pPr>(?:(?!<\/w:pPr>)[\s\S])*<\/w:pPr>)?)/g;

/** The package with its document part's drop caps joined to their paragraphs (see {@link DROP_CAP}). */
export function withDropCapsJoined(entries: ZipEntries): ZipEntries {
  const main = entries['word/document.xml'];
  // Looked for in the bytes: most documents have none, and their part is not decoded for it.
  if (!main || !Buffer.from(main.buffer, main.byteOffset, main.length).includes('w:dropCap')) return entries;
  const xml = strFromU8(main);
  const joined = xml.replace(DROP_CAP, (_, runs: string, next: string) => `${next}${runs}`);
  return joined === xml ? entries : { ...entries, 'word/document.xml': strToU8(joined) };
}

const escapeHtml = (text: string) => text.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/** One paragraph of a Word document part: its text, and its heading level (0 for none). */
interface Paragraph {
  readonly text: string;
  readonly level: number;
}

/**
 * A Word document part's paragraphs, read without an XML parser (so a part that is not well-formed
 * is read too): each `<w:p>` the text of its runs (`<w:t>`, tabs, breaks), a heading when its style
 * is `Title` or `Heading N`. Paragraphs without text are left out.
 */
function* paragraphsOf(xml: string): Generator<Paragraph> {
  for (const paragraph of xml.match(/<w:p[\s>][\s\S]*?<\/w:p>/g) ?? []) {
    let text = '';
    for (const [run, content] of paragraph.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:tab\/>|<w:br\/>|<w:cr\/>/g)) {
      text += content !== undefined ? decodeXml(content) : run.startsWith('<w:tab') ? '\t' : '\n';
    }
    if (text.trim() === '') continue;
    const style = /<w:pStyle\s+w:val="([^"]*)"/.exec(paragraph)?.[1] ?? '';
    yield { text, level: /^title$/i.test(style) ? 1 : Number(/^heading\s*([1-6])$/i.exec(style)?.[1] ?? 0) };
  }
}

function paragraphHtml({ text, level }: Paragraph): string {
  const tag = level > 0 ? `h${level}` : 'p';
  return `<${tag}>${escapeHtml(text).replace(/\n/g, '<br>')}</${tag}>`;
}

/** A Word document part's paragraphs as HTML (see {@link paragraphsOf}); empty when it holds no text. */
export function paragraphsHtml(xml: string): string {
  return [...paragraphsOf(xml)].map(paragraphHtml).join('\n');
}

/** Bytes of a large document part decoded and read at a time. */
const PART_SLICE_BYTES = 1024 * 1024;

/**
 * The first paragraphs of a (large) document part as HTML, as far as `maxTextChars` of text: the
 * part is decoded a slice at a time and read up to its last whole paragraph, so neither the whole
 * part's text nor a DOM of it is ever held.
 */
export function leadingParagraphsHtml(part: Uint8Array, maxTextChars: number): string {
  const decoder = new TextDecoder();
  const out: string[] = [];
  let chars = 0;
  let pending = '';
  for (let at = 0; at < part.length && chars < maxTextChars; at += PART_SLICE_BYTES) {
    pending += decoder.decode(part.subarray(at, at + PART_SLICE_BYTES), {
      stream: at + PART_SLICE_BYTES < part.length,
    });
    const end = pending.lastIndexOf('</w:p>') + '</w:p>'.length;
    if (end < '</w:p>'.length) continue;
    for (const paragraph of paragraphsOf(pending.slice(0, end))) {
      out.push(paragraphHtml(paragraph));
      chars += paragraph.text.length + 1;
      if (chars >= maxTextChars) break;
    }
    pending = pending.slice(end);
  }
  return out.join('\n');
}
