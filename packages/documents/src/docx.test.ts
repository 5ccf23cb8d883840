import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { NonRetryableError } from '@quarry/core';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { paragraphsHtml, withDropCapsJoined } from './docx.js';
import { extractDocument } from './extract.js';

const TABLES_DOCX = fileURLToPath(
  new URL('../../../../shared/testdata/office/textract/docx/paragraphs_and_tables.docx', import.meta.url),
);
const CALIBRE_DOCX = fileURLToPath(
  new URL('../../../../shared/testdata/office/officeparser/files/test.docx', import.meta.url),
);

/** The calibre document as it is, extracted once for the tests that read it whole. */
let calibreIntact: ReturnType<typeof extractDocument> | undefined;
const intactCalibre = (): ReturnType<typeof extractDocument> => {
  calibreIntact ??= extractDocument(readFileSync(CALIBRE_DOCX), 'docx');
  return calibreIntact;
};

/** The package at `path` with `changes` made: a part's new text, or null to leave it out. */
function altered(path: string, changes: Readonly<Record<string, string | null>>): Uint8Array {
  const entries = unzipSync(readFileSync(path));
  for (const [name, text] of Object.entries(changes)) {
    if (text === null) delete entries[name];
    else entries[name] = strToU8(text);
  }
  return zipSync(entries);
}

describe('paragraphsHtml', () => {
  it("reads each paragraph's runs, tabs and breaks, headings by their style", () => {
    const xml =
      '<w:document><w:body>' +
      '<w:p><w:pPr><w:pStyle w:val="Title"/></w:pPr><w:r><w:t>Report &amp; notes</w:t></w:r></w:p>' +
      '<w:p><w:pPr><w:pStyle w:val="Heading2"/></w:pPr><w:r><w:t xml:space="preserve">Costs </w:t></w:r><w:r><w:t>&#x2192; 2026</w:t></w:r></w:p>' +
      '<w:p><w:r><w:t>a</w:t><w:tab/><w:t>b &lt;c&gt;</w:t><w:br/><w:t>next line</w:t></w:r></w:p>' +
      '<w:p><w:r><w:t>   </w:t></w:r></w:p><w:p/>' +
      // Not well-formed past here: what came before is read all the same.
      '<w:p><w:r><w:t>last</w:t></w:r></w:p><w:p><w:r><w:t>cut off';
    expect(paragraphsHtml(xml)).toBe(
      '<h1>Report &#38; notes</h1>\n<h2>Costs → 2026</h2>\n<p>a\tb &#60;c&#62;<br>next line</p>\n<p>last</p>',
    );
    expect(paragraphsHtml('<w:document><w:body></w:body></w:document>')).toBe('');
  });
});

describe('a Word document too large to read whole', () => {
  it('keeps its first paragraphs, as far as the text limit, headings and every script intact', async () => {
    // About 9.5 MB of document part: over the size mammoth is left to; the slices it is read in
    // (1 MB) cut through paragraphs and through the bytes of their characters.
    const paragraphs: string[] = [];
    for (let i = 0, length = 0; length < 9_500_000; i++, length += paragraphs.at(-1)?.length ?? 0) {
      paragraphs.push(
        i % 100 === 0
          ? `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Chapter ${i / 100}</w:t></w:r></w:p>`
          : `<w:p><w:r><w:t xml:space="preserve">Paragraph ${i}: café 採石場 — </w:t></w:r><w:r><w:t>${'granite and slate '.repeat(12)}</w:t></w:r></w:p>`,
      );
    }
    const part = `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs.join('')}</w:body></w:document>`;
    // Zipped fast (level 1): what is read is the part, whatever its compression.
    const bytes = zipSync({ 'word/document.xml': strToU8(part) }, { level: 1 });
    // A heap mammoth's DOM of this part does not fit in.
    const doc = await extractDocument(bytes, 'docx', { maxTextChars: 300_000, maxHeapMb: 128 });
    expect(doc.filetype).toBe('docx');
    expect(doc.text.startsWith('Chapter 0\n\nParagraph 1: café 採石場 — granite')).toBe(true);
    expect(doc.text.length).toBeGreaterThan(250_000);
    expect(doc.text.length).toBeLessThanOrEqual(300_000);
    expect(doc.markdown).toMatch(/^# Chapter 12$/m);
    // Every paragraph whole: no character broken where a slice ended.
    expect(doc.text).not.toContain('\ufffd');
    const lines = doc.text.split('\n').filter((line) => line.startsWith('Paragraph'));
    expect(
      lines
        .slice(0, -1)
        .every((line) => /^Paragraph \d+: café 採石場 — (granite and slate ){11}granite and slate$/.test(line)),
    ).toBe(true);
  });
});

describe('drop caps', () => {
  const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  const part = (body: string) => ({
    'word/document.xml': strToU8(`<w:document ${W}><w:body>${body}</w:body></w:document>`),
  });
  const text = (entries: Record<string, Uint8Array>) =>
    new TextDecoder()
      .decode(entries['word/document.xml'])
      .replace(/<[^>]+>/g, '|')
      .replace(/\|+/g, '|');

  it('joins the big first letter to the paragraph it opens, and leaves other frames alone', () => {
    const dropCap =
      '<w:p><w:pPr><w:framePr w:dropCap="drop" w:lines="3"/><w:rPr><w:sz w:val="117"/></w:rPr></w:pPr><w:r><w:t>D</w:t></w:r></w:p>' +
      '<w:p w:rsidR="1"><w:pPr><w:ind w:firstLine="0"/></w:pPr><w:r><w:t>rop caps lead.</w:t></w:r></w:p>' +
      '<w:p><w:pPr><w:framePr w:w="2000"/></w:pPr><w:r><w:t>A text box</w:t></w:r></w:p><w:p><w:r><w:t>After.</w:t></w:r></w:p>';
    expect(text(withDropCapsJoined(part(dropCap)))).toBe('|D|rop caps lead.|A text box|After.|');
    // Its runs now open the next paragraph: one paragraph, `Drop caps lead.` once read.
    const joined = new TextDecoder().decode(withDropCapsJoined(part(dropCap))['word/document.xml']);
    expect(joined.match(/<w:p\b/g)).toHaveLength(3);
    expect(joined).toContain('<w:ind w:firstLine="0"/></w:pPr><w:r><w:t>D</w:t></w:r><w:r><w:t>rop');
  });

  const calibre = existsSync(CALIBRE_DOCX) ? it : it.skip;
  calibre("reads a real document's drop cap as the first letter of its word", async () => {
    const doc = await intactCalibre();
    expect(doc.text).toContain('Drop caps are used to emphasize the leading paragraph');
    expect(doc.text).not.toMatch(/^rop caps/m);
  });
});

describe('Word packages a writer got partly wrong', () => {
  const withTables = existsSync(TABLES_DOCX) ? it : it.skip;
  if (!existsSync(TABLES_DOCX)) console.warn(`documents: ${TABLES_DOCX} is absent; skipping the broken packages`);

  withTables('reads them as the intact one when a helper part is broken or missing', async () => {
    const intact = await extractDocument(readFileSync(TABLES_DOCX), 'docx');
    expect(intact.markdown).toContain('|');
    const broken: Record<string, string | null>[] = [
      { '[Content_Types].xml': '<Types garbage' },
      { 'word/_rels/document.xml.rels': '<Relationships' },
      { 'word/styles.xml': '<w:styles><w:style>' },
      { 'word/styles.xml': null },
      { '[Content_Types].xml': null, '_rels/.rels': null },
    ];
    for (const changes of broken) {
      const doc = await extractDocument(altered(TABLES_DOCX, changes), 'docx');
      expect({ changes, text: doc.text, markdown: doc.markdown }).toEqual({
        changes,
        text: intact.text,
        markdown: intact.markdown,
      });
    }
  });

  const withCalibre = existsSync(CALIBRE_DOCX) ? it : it.skip;
  withCalibre("reads the document part's paragraphs when mammoth cannot read the package", async () => {
    const intact = await intactCalibre();
    // Footnotes referred to but gone: mammoth fails on the first reference.
    const doc = await extractDocument(altered(CALIBRE_DOCX, { 'word/footnotes.xml': null }), 'docx');
    const words = (text: string) => new Set(text.toLowerCase().match(/\p{L}+/gu) ?? []);
    const kept = [...words(intact.text)].filter((w) => words(doc.text).has(w)).length;
    // The words missing are the footnotes' own, gone with their part.
    expect(kept / words(intact.text).size).toBeGreaterThan(0.9);
    expect(doc.text).toContain(intact.text.split('\n').find((line) => line.length > 200));
    expect(doc.markdown).toMatch(/^# .+/m);
    expect(doc.title).toBe(intact.title);
  });

  withTables('still says a package without a readable document part is unreadable', async () => {
    const error = await extractDocument(altered(TABLES_DOCX, { 'word/document.xml': '<w:document><w:body' }), 'docx')
      .then(() => null)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NonRetryableError);
    expect((error as NonRetryableError).code).toBe('document_unreadable');
  });
});
