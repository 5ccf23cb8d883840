import { describe, expect, it } from '@jest/globals';
import { htmlMarkdown } from './html-markdown.js';

describe('htmlMarkdown', () => {
  it('writes footnotes as markdown does, each note a block of its own after a list', () => {
    const md = htmlMarkdown(
      '<p>Sales rose<sup><a href="#fn-1" id="ref-1">[1]</a></sup>.</p><ul><li>North</li><li>South</li></ul>' +
        '<ol><li id="fn-1"><p>Audited figures. <a href="#ref-1">↑</a></p></li></ol>',
    );
    expect(md).toBe('Sales rose[^1].\n\n- North\n- South\n\n[^1]: Audited figures.');
  });

  it('keeps the text of a link within the document and the target of a link out of it', () => {
    const md = htmlMarkdown(
      '<h1><a id="_Toc1"></a>Report</h1><p>See <a href="#_Toc1">the report</a> and <a href="https://example.org/a">the annex</a>.</p>',
    );
    expect(md).toBe('# Report\n\nSee the report and [the annex](https://example.org/a).');
  });
});
