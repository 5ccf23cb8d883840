import { XMLValidator } from 'fast-xml-parser';
import { strFromU8, strToU8 } from 'fflate';
import { ooxmlCoreProperties, rezip, type ZipEntries } from './ooxml.js';
import type { DocumentContent } from './types.js';

const WORD_MAIN = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

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
 * part are read directly ({@link paragraphsHtml}: text and headings, no lists or tables).
 */
export async function readDocx(entries: ZipEntries): Promise<DocumentContent> {
  const main = entries['word/document.xml'];
  if (!main) throw new Error('not a Word package');
  const [{ default: mammoth }, { htmlDocument }] = await Promise.all([import('mammoth'), import('@quarry/extract')]);
  let html: string;
  try {
    // Word's structure (headings, lists, tables, footnotes) as HTML, read as a page's content is:
    // mammoth's own Markdown writer kept bookmarks as raw `<a id>` tags and wrote `**bold **`, and
    // its raw text wrote each cell of a table as a paragraph of its own. The text and the markdown
    // come from the one reading, so a table laying the document out is unwrapped in both.
    html = (
      await mammoth.convertToHtml(
        { buffer: Buffer.from(rezip(wellFormedParts(entries))) },
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

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML character references and the five named entities, as text. */
function unescapeXml(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return ENTITIES[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const escapeHtml = (text: string) => text.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A Word document part's paragraphs as HTML, read without an XML parser (so a part that is not
 * well-formed is read too): each `<w:p>` a paragraph of its runs' text (`<w:t>`, tabs, breaks), a
 * heading when its style is `Title` or `Heading N`. Empty when it holds no text.
 */
export function paragraphsHtml(xml: string): string {
  const out: string[] = [];
  for (const paragraph of xml.match(/<w:p[\s>][\s\S]*?<\/w:p>/g) ?? []) {
    let text = '';
    for (const [run, content] of paragraph.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:tab\/>|<w:br\/>|<w:cr\/>/g)) {
      text += content !== undefined ? unescapeXml(content) : run.startsWith('<w:tab') ? '\t' : '\n';
    }
    if (text.trim() === '') continue;
    const style = /<w:pStyle\s+w:val="([^"]*)"/.exec(paragraph)?.[1] ?? '';
    const level = /^title$/i.test(style) ? 1 : Number(/^heading\s*([1-6])$/i.exec(style)?.[1] ?? 0);
    const tag = level > 0 ? `h${level}` : 'p';
    out.push(`<${tag}>${escapeHtml(text).replace(/\n/g, '<br>')}</${tag}>`);
  }
  return out.join('\n');
}
