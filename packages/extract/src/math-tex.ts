import { idLookup } from './element-ids.js';
import { isHidden, textUpTo } from './text.js';

/**
 * The attribute that marks a formula written as TeX: `inline` or `block` (a displayed equation).
 * The markdown writes it between `$` (`$$` on its own lines for a block), unescaped.
 */
export const TEX_ATTRIBUTE = 'data-tex';

/** The encodings of a MathML `<annotation>` that holds the formula's TeX source. */
const TEX_ENCODINGS = new Set(['application/x-tex', 'application/x-latex', 'tex', 'latex', 'text/x-tex']);
/** MediaWiki's wrapper around each formula's source: `{\displaystyle x^{2}}`. */
const STYLE_WRAPPER = /^\{\\(?:displaystyle|textstyle)\s*([\s\S]*)\}$/;
/** How far above a formula a hidden wrapper is looked for. */
const MAX_WRAPPER_HOPS = 2;
/** Blank text a wrapper may hold around its formula (indentation of the markup). */
const MAX_WRAPPER_SPACE = 200;

/**
 * Replaces each MathML formula that carries its TeX source (an `<annotation
 * encoding="application/x-tex">`, or the `alttext` attribute: KaTeX, MediaWiki, LaTeXML's arXiv
 * pages, MathJax with semantics) by a `<span data-tex>` of that source. Read as text, a formula's
 * elements run together (`x2+1x^2+1`: the layout's characters, then the source a browser never
 * shows), and a superscript reads as a digit; its TeX says what it is, and a model reads TeX. A
 * formula whose accessible copy is hidden beside a drawing of it (MediaWiki's `display: none`
 * MathML next to an SVG image) takes the hidden wrapper's place, so it is read, and the image of
 * the same source beside it goes. A formula without its source keeps its MathML.
 */
export function mathAsTex(doc: Document): number {
  let replaced = 0;
  for (const math of Array.from(doc.getElementsByTagName('math'))) {
    if (!math.isConnected) continue;
    const tex = texOf(math);
    if (tex === null) continue;
    const span = doc.createElement('span');
    span.setAttribute(TEX_ATTRIBUTE, math.getAttribute('display') === 'block' ? 'block' : 'inline');
    span.textContent = tex;
    // A hidden wrapper is taken with the formula only when it holds nothing else.
    const own = (math.textContent ?? '').trim();
    let target: Element = math;
    let up = math.parentElement;
    for (let hops = 0; up !== null && hops < MAX_WRAPPER_HOPS && up.localName !== 'body'; hops++) {
      if (textUpTo(up, own.length + MAX_WRAPPER_SPACE).trim() !== own) break;
      if (isHidden(up)) target = up;
      up = up.parentElement;
    }
    target.replaceWith(span);
    dropDrawings(span, tex);
    replaced++;
  }
  return replaced;
}

/** MathJax 2's script type for a formula's TeX: `math/tex`, `math/tex; mode=display` for a displayed one. */
const MATHJAX_TEX_TYPE = /^\s*math\/tex\s*(;\s*mode\s*=\s*display\s*)?$/i;

/**
 * Replaces each formula MathJax 2 keeps as a `<script type="math/tex">` by a `<span data-tex>` of
 * its TeX, and removes what MathJax drew from it: the drawing (`id="MathJax-Element-N-Frame"`, in
 * a display box for a displayed formula, holding an assistive MathML copy) and the preview before
 * it (empty once drawn, the TeX or an image before). Read as text, the drawing loses what the TeX says (`a_{ij}^2` reads `aij2`); a page
 * saved before MathJax ran has only the script and its preview.
 */
export function mathJaxAsTex(doc: Document): number {
  let replaced = 0;
  const byId = idLookup(doc);
  for (const script of Array.from(doc.getElementsByTagName('script'))) {
    const type = MATHJAX_TEX_TYPE.exec(script.getAttribute('type') ?? '');
    if (type === null) continue;
    const span = doc.createElement('span');
    span.setAttribute(TEX_ATTRIBUTE, type[1] === undefined ? 'inline' : 'block');
    span.textContent = (script.textContent ?? '').trim();
    const id = script.getAttribute('id');
    const drawing = id ? byId(`${id}-Frame`) : null;
    // The preview comes before the drawing (or the display box holding it), the drawing before the script.
    let before = script.previousElementSibling;
    if (drawing && before && (before === drawing || before.contains(drawing))) before = before.previousElementSibling;
    if (before?.classList.contains('MathJax_Preview')) before.remove();
    drawing?.remove();
    script.replaceWith(span);
    replaced++;
  }
  return replaced;
}

/** Removes the image beside a formula that draws the same TeX (MediaWiki's SVG, its alt the source). */
function dropDrawings(span: Element, tex: string): void {
  for (const sibling of [span.previousElementSibling, span.nextElementSibling]) {
    if (sibling?.localName === 'img' && unwrapTexStyle(sibling.getAttribute('alt') ?? '') === tex) sibling.remove();
  }
}

function texOf(math: Element): string | null {
  for (const annotation of Array.from(math.getElementsByTagName('annotation'))) {
    if (TEX_ENCODINGS.has((annotation.getAttribute('encoding') ?? '').trim().toLowerCase())) {
      const tex = unwrapTexStyle(annotation.textContent ?? '');
      if (tex !== '') return tex;
    }
  }
  const alt = unwrapTexStyle(math.getAttribute('alttext') ?? '');
  return alt === '' ? null : alt;
}

/** TeX without MediaWiki's `{\displaystyle …}` wrapper, trimmed. */
export function unwrapTexStyle(tex: string): string {
  const trimmed = tex.trim();
  return (STYLE_WRAPPER.exec(trimmed)?.[1] ?? trimmed).trim();
}
