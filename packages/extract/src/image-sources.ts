/**
 * The picture an image shows once its page's scripts have run. Pages that load their pictures
 * lazily give each `<img>` a stand-in `src` (a `data:` URI, Amazon's `grey-pixel.gif`, a lazy-load
 * plugin's `1x1.trans.gif`) and the picture's address in `data-src` or a `srcset`, which a script
 * moves to `src` as the reader scrolls. The markdown showed the stand-in, or nothing at all for a
 * `data:` URI (node-html-markdown leaves such images out, alt text and all).
 */

/** Attributes that lazy-loading scripts read the picture's address from, the most used first. */
const LAZY_SOURCES = [
  'data-src',
  'data-lazy-src',
  'data-original',
  'data-lazy',
  'data-url',
  'data-hi-res-src',
  'data-full-src',
];
/** Attributes that hold a lazy picture's candidates (`url 700w, url 210w`). */
const LAZY_SRCSETS = ['srcset', 'data-srcset', 'data-lazy-srcset'];
/** An address of a picture file, by its extension (`//cdn.example/a.jpg?w=2`). */
const PICTURE_URL = /^(?:https?:)?\/?\/?[^\s"'<>]+\.(?:jpe?g|png|webp|avif|gif)(?:[?#]\S*)?$/i;
/** A stand-in picture's file: a named pixel, spacer or placeholder, as a GIF, PNG or SVG. */
const PLACEHOLDER_FILE =
  /(?:^|[\W_])(?:1x1|pixel|blank|spacer|transparent|trans|placeholder|lazy|lazyload|loading|empty)(?:[\W_][^/]*)?\.(?:gif|png|svg)$/i;
/**
 * A stand-in in a photo's format, named so (`placeholder--frontpage--featured-news.jpg`,
 * `lazy-image-placeholder.jpg`): a site's grey card shown until its script loads the picture. Only
 * the word `placeholder`: a photo's own name may hold `pixel` or `blank` (`pixel-7-review.jpg`).
 */
const PLACEHOLDER_PHOTO = /(?:^|[\W_])placeholder(?:[\W_][^/]*)?\.(?:jpe?g|webp|avif)$/i;

/** Whether an image's `src` is a stand-in for its picture: none, a `data:` URI, or a placeholder file. */
export function isPlaceholderSource(src: string | null): boolean {
  const value = (src ?? '').trim();
  if (value === '' || /^data:/i.test(value)) return true;
  const path = value.split(/[?#]/)[0] ?? '';
  const file = path.slice(path.lastIndexOf('/') + 1);
  return PLACEHOLDER_FILE.test(file) || PLACEHOLDER_PHOTO.test(file);
}

/**
 * The address of the widest candidate of a `srcset` (`a.jpg 700w, b.jpg 210w` → `a.jpg`), or its
 * first when none gives a width; null when it has none but `data:` URIs.
 */
export function widestCandidate(srcset: string): string | null {
  let best: { url: string; width: number } | null = null;
  // Candidates are split at a comma followed by white space: URLs may hold commas themselves.
  for (const candidate of srcset.split(/,\s+/)) {
    const [url, descriptor] = candidate.trim().split(/\s+/);
    if (!url || /^data:/i.test(url)) continue;
    const width = Number.parseFloat(descriptor ?? '') || 0;
    if (best === null || width > best.width) best = { url, width };
  }
  return best?.url ?? null;
}

/**
 * Gives each image under `root` whose `src` is a stand-in (see {@link isPlaceholderSource}) the
 * address its lazy-loading attributes hold (edits `root`): the first of {@link LAZY_SOURCES}, else
 * the widest candidate of a `srcset`, else another `data-` attribute that holds a picture's
 * address. An image with none keeps its `src`. Returns how many changed.
 */
export function loadLazyImages(root: Element): number {
  let changed = 0;
  for (const img of Array.from(root.querySelectorAll('img'))) {
    if (!isPlaceholderSource(img.getAttribute('src'))) continue;
    const real = lazySource(img);
    if (real === null) continue;
    img.setAttribute('src', real);
    changed++;
  }
  return changed;
}

function lazySource(img: Element): string | null {
  for (const name of LAZY_SOURCES) {
    const value = img.getAttribute(name)?.trim();
    if (value && !isPlaceholderSource(value)) return value;
  }
  for (const name of LAZY_SRCSETS) {
    const value = img.getAttribute(name);
    const widest = value ? widestCandidate(value) : null;
    if (widest !== null) return widest;
  }
  // Any other `data-` attribute that holds a picture's address (Samsung's `data-src-pc`).
  for (const { name, value } of Array.from(img.attributes)) {
    if (name.startsWith('data-') && PICTURE_URL.test(value.trim()) && !isPlaceholderSource(value)) return value.trim();
  }
  return null;
}
