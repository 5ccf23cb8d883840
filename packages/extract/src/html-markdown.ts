import { parseDocument } from './dom.js';
import { FOOTNOTE_ATTRIBUTE } from './footnotes.js';
import { contentMarkdown } from './markdown.js';
import { unwrap } from './text.js';

/**
 * The markdown of an HTML document that is content from end to end, as a Word file is once mammoth
 * has written it as HTML: read as a page is (footnote references `[^1]`, their notes `[^1]: …`,
 * the links back from the notes left out) and converted as a page's main content is. A link within
 * the document (a table of contents' entry, a cross-reference to `#_Toc…`) keeps only its text: it
 * leads nowhere a reader of the markdown can follow.
 *
 * @example htmlMarkdown('<h1>Report</h1><p>Sales rose<sup><a href="#fn-1">[1]</a></sup>.</p>…')
 */
export function htmlMarkdown(html: string): string {
  const { document, close } = parseDocument(
    `<!DOCTYPE html><html><body>${html}</body></html>`,
    'about:blank',
    'linkedom',
  );
  try {
    for (const link of Array.from(document.body.querySelectorAll('a[href^="#"]'))) {
      if (link.closest(`[${FOOTNOTE_ATTRIBUTE}]`) === null) unwrap(link);
    }
    return contentMarkdown(document.body);
  } finally {
    close();
  }
}
