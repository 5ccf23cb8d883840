import { describe, expect, it } from '@jest/globals';
import { htmlDocument } from './html-markdown.js';

describe('htmlDocument', () => {
  it('writes footnotes as markdown does, each note a block of its own after a list', () => {
    const { markdown: md } = htmlDocument(
      '<p>Sales rose<sup><a href="#fn-1" id="ref-1">[1]</a></sup>.</p><ul><li>North</li><li>South</li></ul>' +
        '<ol><li id="fn-1"><p>Audited figures. <a href="#ref-1">↑</a></p></li></ol>',
    );
    expect(md).toBe('Sales rose[^1].\n\n- North\n- South\n\n[^1]: Audited figures.');
  });

  it('keeps the text of a link within the document and the target of a link out of it', () => {
    const { markdown: md } = htmlDocument(
      '<h1><a id="_Toc1"></a>Report</h1><p>See <a href="#_Toc1">the report</a> and <a href="https://example.org/a">the annex</a>.</p>',
    );
    expect(md).toBe('# Report\n\nSee the report and [the annex](https://example.org/a).');
  });

  it('reads a table framing a table as its content, the table inside as a table and a line per row', () => {
    // As mammoth writes a Word table nested in a one-cell table.
    const doc = htmlDocument(
      '<table><tr><td><p>Offices:</p><table><thead><tr><th><p>City</p></th><th><p>Staff</p></th></tr></thead>' +
        '<tbody><tr><td><p>Oslo</p></td><td><p>12</p></td></tr></tbody></table></td></tr></table>',
    );
    expect(doc.markdown).toBe('Offices:\n\n| City | Staff |\n| --- | --- |\n| Oslo | 12 |');
    expect(doc.text).toBe('Offices:\n\nCity Staff\nOslo 12');
  });
});
