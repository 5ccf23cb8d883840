import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { NonRetryableError } from '@quarry/core';
import { unzipSync, zipSync } from 'fflate';
import { extractDocument } from './extract.js';
import type { DocumentFiletype, ExtractedDocument } from './types.js';

const OFFICE = fileURLToPath(new URL('../../../../shared/testdata/office', import.meta.url));
const TEXTRACT = join(OFFICE, 'textract');
const OFFICEPARSER = join(OFFICE, 'officeparser');
const haveData = existsSync(TEXTRACT) && existsSync(OFFICEPARSER);
if (!haveData) console.warn(`documents: ${OFFICE} is absent; skipping the document corpus tests`);
const withData = haveData ? describe : describe.skip;

const FORMATS: readonly DocumentFiletype[] = ['pdf', 'doc', 'docx', 'ppt', 'pptx', 'xls', 'xlsx', 'odt'];

const words = (text: string): string[] =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];
const flat = (text: string): string => words(text).join(' ');

/** Share of the expected words (with multiplicity) that the extracted text has. */
function wordRecall(expected: string, actual: string): number {
  const bag = new Map<string, number>();
  for (const w of words(actual)) bag.set(w, (bag.get(w) ?? 0) + 1);
  const wanted = words(expected);
  let hits = 0;
  for (const w of wanted) {
    const n = bag.get(w) ?? 0;
    if (n > 0) {
      hits += 1;
      bag.set(w, n - 1);
    }
  }
  return hits / wanted.length;
}

interface Case {
  file: string;
  filetype: DocumentFiletype;
  expected: string | null;
}

function corpus(): Case[] {
  if (!haveData) return [];
  const cases: Case[] = [];
  for (const ext of readdirSync(TEXTRACT)) {
    if (!(FORMATS as readonly string[]).includes(ext)) continue;
    for (const name of readdirSync(join(TEXTRACT, ext))) {
      if (!name.endsWith(`.${ext}`) || name.startsWith('ocr_')) continue;
      const truth = join(TEXTRACT, ext, name.replace(/\.[a-z]+$/, '.txt'));
      cases.push({
        file: join(TEXTRACT, ext, name),
        filetype: ext as DocumentFiletype,
        expected: existsSync(truth) ? readFileSync(truth, 'utf8') : null,
      });
    }
  }
  for (const name of readdirSync(join(OFFICEPARSER, 'files'))) {
    const ext = name.split('.').pop() ?? '';
    if (!(FORMATS as readonly string[]).includes(ext)) continue;
    const truth = join(OFFICEPARSER, 'baseline', `${name}.txt`);
    cases.push({
      file: join(OFFICEPARSER, 'files', name),
      filetype: ext as DocumentFiletype,
      expected: existsSync(truth) ? readFileSync(truth, 'utf8') : null,
    });
  }
  return cases;
}

const cases = corpus();
const label = (c: Case): string => c.file.slice(OFFICE.length + 1);

/** Runs `task` over `items`, `limit` at a time (each extraction is its own worker). */
async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) results[i] = await task(items[i] as T);
  };
  await Promise.all(Array.from({ length: limit }, lane));
  return results;
}

withData('extractDocument on real documents', () => {
  const extracted = new Map<string, ExtractedDocument>();
  const read = (c: Case): ExtractedDocument => {
    const doc = extracted.get(c.file);
    if (!doc) throw new Error(`not extracted: ${c.file}`);
    return doc;
  };

  // Extractions run one a core at most (see extract.ts), whatever the lanes here.
  beforeAll(async () => {
    const docs = await mapLimit(cases, 3, (c) => extractDocument(readFileSync(c.file), c.filetype));
    for (const [i, c] of cases.entries()) extracted.set(c.file, docs[i] as ExtractedDocument);
  }, 120_000);

  it('covers every format', () => {
    expect(new Set(cases.map((c) => c.filetype))).toEqual(new Set(FORMATS));
  });

  it.each(cases.filter((c) => c.file.includes('standardized_text')).map((c) => [label(c), c] as const))(
    '%s contains the standard sentence',
    (_, c) => {
      const doc = read(c);
      expect(flat(doc.text)).toContain('the quick brown fox jumps over the lazy dog');
      expect(doc.author).toBe('Dean Malmgren');
      expect(doc.published_at).toMatch(/^2014-08-25T\d\d:\d\d:\d\dZ$/);
    },
  );

  it.each(cases.filter((c) => c.expected !== null).map((c) => [label(c), c] as const))(
    '%s has the ground-truth text',
    (_, c) => {
      const doc = read(c);
      const expected = c.expected ?? '';
      // Layout differs between tools (tabs, columns, hyphenation); the words must be there.
      expect(wordRecall(expected, doc.text)).toBeGreaterThan(0.9);
      // pdftotext's text opens with a journal's head (`Vol 465 | 3 June 2010 | doi:…`), which is left out.
      const opening = words(expected.replace(/^.* \| .*$/gm, ''))
        .slice(0, 6)
        .join(' ');
      expect(flat(doc.text)).toContain(opening);
    },
  );

  it.each(cases.filter((c) => c.expected !== null).map((c) => [label(c), c] as const))(
    '%s has markdown with the same words',
    (_, c) => {
      const doc = read(c);
      expect(wordRecall(c.expected ?? '', doc.markdown)).toBeGreaterThan(0.9);
    },
  );

  it('gives slides and sheets their own sections, sheets as tables', () => {
    const pptx = read({ file: join(TEXTRACT, 'pptx', 'raw_text.pptx'), filetype: 'pptx', expected: null });
    expect(pptx.markdown).toMatch(/^## I love PowerPoint\. A lot\.$/m);
    const xlsx = read({ file: join(TEXTRACT, 'xlsx', 'raw_text.xlsx'), filetype: 'xlsx', expected: null });
    expect(xlsx.markdown).toMatch(/^## Sheet1\n\n\| Category \| Function \|.*\n\|( --- \|)+\n\| Logical \| IFERROR \|/);
    // A sheet of one column is its lines, not a table of one column.
    const column = read({ file: join(OFFICEPARSER, 'files', 'test.xlsx'), filetype: 'xlsx', expected: null });
    expect(column.markdown).toMatch(
      /^## Sheet1\n\nDemonstration of DOCX support in calibre\n\nThis document demonstrates/,
    );
    expect(column.markdown).not.toMatch(/^## Sheet1\n\n\|/m);
    const docx = read({ file: join(TEXTRACT, 'docx', 'paragraphs_and_tables.docx'), filetype: 'docx', expected: null });
    expect(docx.markdown).toContain('This is the paragraph before the table. It should appear first.');
  });

  it('reads an OpenDocument text with its structure, properties and footnotes', () => {
    const odt = read({ file: join(OFFICEPARSER, 'files', 'test.odt'), filetype: 'odt', expected: null });
    expect(odt.markdown).toMatch(/^# Demonstration of DOCX support in calibre$/m);
    expect(odt.markdown).toMatch(/^## Inline formatting$/m);
    expect(odt.markdown).toMatch(/^\| ITEM \| NEEDED \|\n\| --- \| --- \|\n\| Books \| 1 \|$/m);
    expect(odt.markdown).toMatch(/^- One\n {2}- Two\n {4}- Three$/m);
    // Words joined by text:s elements, not glued: `using the “Add Books” button`.
    expect(odt.text).toContain('simply add this file to calibre using the “Add Books” button and then click');
    expect(odt.text).toContain('a better paradigm is to make them clickable endnotes');
    // meta:initial-creator, not dc:creator (whoever saved it last).
    expect(odt).toMatchObject({ title: 'DOCX Demo', author: 'Kovid Goyal', published_at: '2025-11-29T07:48:00Z' });
  });

  it('reads a Word document with its structure: title, headings, emphasis, lists, a table, footnotes', () => {
    const docx = read({ file: join(OFFICEPARSER, 'files', 'test.docx'), filetype: 'docx', expected: null });
    const md = docx.markdown;
    expect(md).toMatch(/^# Demonstration of DOCX support in calibre$/m);
    expect(md).toMatch(/^## Inline formatting$/m);
    expect(md).toMatch(/^\| ITEM +\| NEEDED +\|\n\| -+ \| -+ \|\n\| Books +\| 1 +\|$/m);
    // The calendar's month spans its first two columns: its delimiter row has a dash in every cell,
    // and each day stands under its weekday.
    expect(md).toMatch(
      /^\| December 2007 (?:\| +)+\|\n\| -+ (?:\| -+ )+\|\n\| Sun +\| Mon +\| Tue +\| Wed +\| Thu +\| Fri +\| Sat +\|$/m,
    );
    expect(md).toMatch(/^\| 2 +\| 3 +\| 4 +\| 5 +\| 6 +\| 7 +\| 8 +\|$/m);
    expect(md).toMatch(/^1\. One\n {3}1\. Two\n {6}1\. Three$/m);
    // Emphasis closes on the word, outside Word's trailing space: `**bold **` is not bold in markdown.
    expect(md).toContain('using the **“Add Books”** button');
    expect(md).toContain('Here is some **bold,** *italic,*');
    // Word's bookmarks are not raw HTML; a cross-reference keeps its text, a web link its target.
    expect(md).not.toContain('<a id=');
    expect(md).toContain('points back to the section on paragraph level formatting in this document');
    expect(md).toContain('[calibre download page](http://calibre-ebook.com/download)');
    // Footnotes as markdown writes them, each note in a block of its own; the table of contents left out.
    expect(md).toContain('Footnotes[^1] and endnotes[^2] are automatically recognized');
    expect(md).toMatch(/\n\n\[\^1\]: In paged media, footnotes are usually displayed/);
    expect(md).not.toContain('↑');
    expect(md).not.toMatch(/Text Formatting \d/);
    // The text, what search reads, keeps every word of it.
    expect(flat(docx.text)).toContain('here is a link pointing to the calibre download page');
  });

  it('reads a PDF as paragraphs, headings and lists from where its text sits', () => {
    const pdf = read({ file: join(OFFICEPARSER, 'files', 'test.pdf'), filetype: 'pdf', expected: null });
    const md = pdf.markdown;
    expect(md).toMatch(/^# Demonstration of DOCX support in calibre$/m);
    expect(md).toMatch(/^#+ Inline formatting$/m);
    // One paragraph on one line, not the page's lines.
    expect(md).toMatch(
      /^This document demonstrates the ability of the calibre DOCX Input plugin to convert the various typographic features in a Microsoft Word \(2007 and newer\) document\. .* to see it in action\.$/m,
    );
    expect(md).toMatch(/^You can do crazy things with paragraphs/m);
    expect(md).toContain('#### Bulleted List\n\n- One\n- Two\n');
    expect(md).toContain(
      '1. One, with a very long line to demonstrate that the hanging indent for the list is working correctly\n2. Two',
    );
    // The table of contents' dotted entries are left out. The text is the same paragraphs, unmarked.
    expect(md).not.toMatch(/\.{5}/);
    expect(pdf.text).not.toMatch(/\.{5}|^#/m);
    expect(pdf.text).toMatch(
      /^Demonstration of DOCX support in calibre\n\nThis document demonstrates .* to see it in action\.$/m,
    );
    expect(pdf.text).toContain('• One\n• Two');
  });

  it('heads each slide of a legacy .ppt with its title in the markdown', () => {
    const ppt = read({ file: join(OFFICEPARSER, 'files', 'test.ppt'), filetype: 'ppt', expected: null });
    expect(ppt.markdown).toMatch(/^## Lorem ipsum\n\nLorem ipsum dolor sit amet, consectetur adipiscing elit\./);
    expect(ppt.markdown).toContain('## Chart\n\n## Table\n\nColumn 1\n\nColumn 2');
    // The text is as before: the slides' texts, one per line, the slide-number placeholders left out.
    expect(ppt.text).toMatch(/^Lorem ipsum\nLorem ipsum dolor sit amet/);
    expect(ppt.text).not.toMatch(/^\*$/m);
  });

  it('reads an OpenDocument text served as a .doc', async () => {
    const doc = await extractDocument(readFileSync(join(TEXTRACT, 'doc', 'standardized_text_1.odt')), 'doc');
    expect(flat(doc.text)).toBe('the quick brown fox jumps over the lazy dog');
    expect(doc.markdown).toContain('- jumps\n- over\n- the');
    expect(doc.author).toBe('Dean Malmgren');
    expect(doc.published_at).toMatch(/^2014-08-25T\d\d:\d\d:\d\dZ$/);
  });

  it('reads PDF properties from the Info dictionary', () => {
    const doc = read({ file: join(TEXTRACT, 'pdf', 'two_column.pdf'), filetype: 'pdf', expected: null });
    expect(doc.title).toBe('The role of mentorship in protégé performance');
    expect(doc.author).toBe('R. Dean Malmgren');
    expect(doc.published_at).toBe('2010-05-25T03:08:57Z');
  });

  it('joins the accents TeX draws apart to their letters', () => {
    const doc = read({ file: join(TEXTRACT, 'pdf', 'two_column.pdf'), filetype: 'pdf', expected: null });
    expect(doc.text).toContain('The role of mentorship in protégé performance');
    expect(doc.text).toContain('Luís A. Nunes Amaral');
    expect(doc.text).not.toMatch(/\p{L}´|´\p{L}/u);
  });

  it("leaves out a journal's running heads, which alternate their words between odd and even pages", () => {
    const doc = read({ file: join(TEXTRACT, 'pdf', 'two_column.pdf'), filetype: 'pdf', expected: null });
    expect(doc.text).not.toMatch(/NATURE \| Vol 465|doi:10\.1038/);
    expect(doc.text).toContain('METHODS SUMMARY');
  });

  it('reads a file by what it is, not by the type it was served as', async () => {
    const docx = readFileSync(join(TEXTRACT, 'docx', 'standardized_text.docx'));
    expect(flat((await extractDocument(docx, 'doc')).text)).toContain('quick brown fox');
  });

  it('reads the text of a document whose pictures alone unzip past the cap, inflating none of them', async () => {
    const entries = unzipSync(readFileSync(join(TEXTRACT, 'docx', 'standardized_text.docx')));
    const limits = { maxUnzippedBytes: 1024 * 1024 };
    // Pictures of 3 MiB each unzipped (a few KiB zipped), and an embedded file: 9 MiB past a 1 MiB cap.
    const withPictures = Buffer.from(
      zipSync({
        ...entries,
        'word/media/image1.png': new Uint8Array(3 * 1024 * 1024),
        'word/media/image2.jpeg': new Uint8Array(3 * 1024 * 1024).fill(7),
        'word/embeddings/sheet.xlsx': new Uint8Array(3 * 1024 * 1024).fill(1),
      }),
    );
    const doc = await extractDocument(withPictures, 'docx', limits);
    expect(flat(doc.text)).toContain('quick brown fox');
    // The text parts still count: the same bytes as the document's body fail.
    const bomb = Buffer.from(zipSync({ ...entries, 'word/document.xml': new Uint8Array(8 * 1024 * 1024) }));
    await expectCleanFailure(extractDocument(bomb, 'docx', limits), ['document_too_large']);
    const slides = unzipSync(readFileSync(join(TEXTRACT, 'pptx', 'standardized_text.pptx')));
    const deck = Buffer.from(zipSync({ ...slides, 'ppt/media/image9.png': new Uint8Array(3 * 1024 * 1024) }));
    expect(flat((await extractDocument(deck, 'pptx', limits)).text)).toContain('quick brown fox');
  });

  it('bounds the text it returns', async () => {
    const doc = await extractDocument(readFileSync(join(TEXTRACT, 'pdf', 'two_column.pdf')), 'pdf', {
      maxTextChars: 1_000,
    });
    expect(doc.text.length).toBeGreaterThan(500);
    expect(doc.text.length).toBeLessThanOrEqual(1_000);
  });
});

/** Deterministic pseudo-random bytes, so a failure can be reproduced. */
function noise(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let state = seed >>> 0;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}

const MAGIC: Readonly<Record<DocumentFiletype, Buffer>> = {
  pdf: Buffer.from('%PDF-1.7\n'),
  doc: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
  ppt: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
  xls: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
  docx: Buffer.from('PK\u0003\u0004'),
  pptx: Buffer.from('PK\u0003\u0004'),
  xlsx: Buffer.from('PK\u0003\u0004'),
  odt: Buffer.from('PK\u0003\u0004'),
  odp: Buffer.from('PK\u0003\u0004'),
  ods: Buffer.from('PK\u0003\u0004'),
};

async function expectCleanFailure(promise: Promise<unknown>, codes: readonly string[]): Promise<void> {
  const started = Date.now();
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NonRetryableError);
  expect(codes).toContain((error as NonRetryableError).code);
  expect(Date.now() - started).toBeLessThan(10_000);
}

describe('extractDocument on garbage', () => {
  it.each(FORMATS.map((f) => [f] as const))(
    '%s: random bytes, and random bytes behind the magic number',
    async (filetype) => {
      await expectCleanFailure(extractDocument(noise(4_096, 7), filetype), ['document_unreadable']);
      const disguised = Buffer.concat([MAGIC[filetype], noise(8_192, 11)]);
      await expectCleanFailure(extractDocument(disguised, filetype), ['document_unreadable']);
    },
  );

  const onePerFormat = FORMATS.map((f) => cases.find((c) => c.filetype === f && c.expected !== null)).filter(
    (c): c is Case => c !== undefined,
  );
  withData('truncated real files fail cleanly or yield a prefix', () => {
    it.each(onePerFormat.map((c) => [label(c), c] as const))('%s', async (_, c) => {
      const bytes = readFileSync(c.file);
      const half = bytes.subarray(0, Math.floor(bytes.length / 2));
      const result = await extractDocument(half, c.filetype).then(
        (doc) => doc,
        (e: unknown) => e,
      );
      if (result instanceof Error) expect(result).toBeInstanceOf(NonRetryableError);
      else expect(typeof (result as { text: unknown }).text).toBe('string');
    });
  });

  it('refuses input over maxBytes and empty input', async () => {
    await expectCleanFailure(extractDocument(Buffer.alloc(2_048, 1), 'pdf', { maxBytes: 1_024 }), [
      'document_too_large',
    ]);
    await expectCleanFailure(extractDocument(Buffer.alloc(0), 'pdf'), ['document_unreadable']);
  });

  it('stops a zip bomb at the unzipped-size cap', async () => {
    const bomb = Buffer.from(
      zipSync({
        '[Content_Types].xml': new Uint8Array(10),
        'word/document.xml': new Uint8Array(8 * 1024 * 1024),
      }),
    );
    expect(bomb.length).toBeLessThan(64 * 1024);
    await expectCleanFailure(extractDocument(bomb, 'docx', { maxUnzippedBytes: 1024 * 1024 }), ['document_too_large']);
  });

  it('rejects a filetype that is not a document', async () => {
    await expectCleanFailure(extractDocument(Buffer.from('<p>hi</p>'), 'html' as DocumentFiletype), [
      'unsupported_filetype',
    ]);
  });
});
