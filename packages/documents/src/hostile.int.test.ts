import { describe, expect, it } from '@jest/globals';
import { pagedPdf } from '@quarry/testkit';
import { extractDocument } from './extract.js';

// Hostile and odd files, generated here, read by the real worker (the package's dist/ build).
describe('extractDocument on hostile and odd files', () => {
  it('reads the first pages of a PDF too slow to read whole, instead of failing at the timeout', async () => {
    // One page-tree node with 12,000 kids: pdf.js walks them for each page, so reading the whole
    // takes minutes; the first pages are what is indexed.
    const pages = Array.from({ length: 12_000 }, (_, i) => [`Flat tree page ${i + 1} of the report`]);
    const doc = await extractDocument(pagedPdf(pages, { title: 'Long report' }), 'pdf', { timeoutMs: 12_000 });
    expect(doc.title).toBe('Long report');
    expect(doc.text).toMatch(/^Flat tree page 1 of the report\b/);
    expect(doc.text).not.toContain('page 12000 of');
  }, 30_000);
});
