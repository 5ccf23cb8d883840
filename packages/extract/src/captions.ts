/** The attribute that marks a picture's caption: plain text leaves it out (see blockText), markdown keeps it. */
export const CAPTION_ATTRIBUTE = 'data-quarry-caption';
/** A figure holding one of these is data, code or a quotation: its caption names or attributes it. */
const CAPTIONED_CONTENT = 'table, pre, code, blockquote';
/** WordPress's caption of an image outside `<figure>` (`<div class="wp-caption"><img><p class="wp-caption-text">`). */
const WP_CAPTION = /(?:^|\s)wp-caption-text(?:\s|$)/;

/**
 * Marks the captions of pictures (a `<figcaption>`, and WordPress's `wp-caption-text`) with
 * {@link CAPTION_ATTRIBUTE}: the plain text leaves them out, the markdown keeps them beside their
 * image. A photo's caption and credit (`The family that backpacks together... Credit: Chris
 * McNamara`) describe the picture, not the text; trafilatura leaves figures out of its text by
 * default, and the references of the shared extraction benchmark leave their captions out. The
 * caption of a figure that holds a table, code or a quotation (`Table 2: ...`, `— Ada Lovelace`)
 * is text like any other. Returns how many captions were marked.
 */
export function markPictureCaptions(elements: readonly Element[]): number {
  let marked = 0;
  for (const el of elements) {
    const caption =
      el.localName.toLowerCase() === 'figcaption'
        ? el.parentElement?.querySelector(CAPTIONED_CONTENT) == null
        : WP_CAPTION.test(el.getAttribute('class') ?? '');
    if (!caption) continue;
    el.setAttribute(CAPTION_ATTRIBUTE, '');
    marked++;
  }
  return marked;
}
