/** What {@link needsRendering} looks at: the raw HTML and how much text extraction found in it. */
export interface RenderingSignals {
  /** The HTML, or how to get it: a crawler holding the body in bytes decodes it only when asked. */
  html: string | (() => string);
  /** Characters of main text extracted from the HTML as served. */
  extractedTextLength: number;
}

/** Text at or above this is a real page whatever its scripts do. */
const ENOUGH_TEXT_CHARS = 1_000;
/** Below this, a single sign of a script-built page is enough. */
const LITTLE_TEXT_CHARS = 250;
/** Inline script this large means the page carries its app, not just analytics. */
const LARGE_INLINE_SCRIPT_BYTES = 50_000;
/** Scanning more than this is pointless for the decision (and bounds the regex work). */
const MAX_SCAN_CHARS = 2_000_000;

/** An element that mounts a single-page app, left empty in the served HTML. */
const EMPTY_APP_ROOT =
  /<(div|main|section|body)\b[^>]*\b(?:id|class)\s*=\s*["']?[^"'>]*?\b(?:root|app|app-root|__next|__nuxt|___gatsby|svelte|main-app|application|mount|ember-app)\b[^"'>]*["']?[^>]*>\s*(?:<!--[\s\S]*?-->\s*)?<\/\1>/i;
/** Angular-style custom root element left empty. */
const EMPTY_CUSTOM_ROOT = /<(app-root|app|ng-app|my-app)\b[^>]*>\s*<\/\1>/i;
const NOSCRIPT_ABOUT_JS = /<noscript\b[^>]*>(?:(?!<\/noscript>)[\s\S]){0,2000}?javascript/i;
/** Script names typical of bundlers (webpack/vite/parcel chunks, framework runtimes). */
const BUNDLE_SCRIPT =
  /<script\b[^>]*\bsrc\s*=\s*["']?[^"'>]*(?:bundle|chunk|main|app|runtime|vendor|index)[.-][^"'>]*\.m?js\b/i;
const MODULE_SCRIPT = /<script\b[^>]*\btype\s*=\s*["']?module\b/i;
/** A script fetched ahead by a `<link>` (`rel=preload as=script`, `rel=modulepreload`): an app loaded without a script tag of its own (Discourse). */
const PRELOADED_SCRIPT =
  /<link\b(?=[^>]*\brel\s*=\s*["']?modulepreload\b|[^>]*\brel\s*=\s*["']?preload\b[^>]*\bas\s*=\s*["']?script\b|[^>]*\bas\s*=\s*["']?script\b[^>]*\brel\s*=\s*["']?preload\b)[^>]*>/i;
/** `<meta name="fragment" content="!">`: the page says it is built by scripts (the AJAX crawling scheme). */
const AJAX_FRAGMENT = /<meta\b(?=[^>]*\bname\s*=\s*["']?fragment\b)(?=[^>]*\bcontent\s*=\s*["']?!)[^>]*>/i;

/**
 * Whether a page is worth rendering with a browser: it has little extracted text AND shows signs
 * of being built by scripts (an empty app root, a `<noscript>` asking for JavaScript, a large
 * inline app, bundled, module or preloaded scripts, a `<meta name="fragment" content="!">`). Cheap and conservative: rendering costs ~100× a fetch.
 *
 * @example needsRendering({ html: '<div id="root"></div><script src="/main.js"></script>', extractedTextLength: 0 }) // true
 */
export function needsRendering({ html, extractedTextLength }: RenderingSignals): boolean {
  if (extractedTextLength >= ENOUGH_TEXT_CHARS) return false;
  const text = typeof html === 'function' ? html() : html;
  const source = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  const signals = [
    EMPTY_APP_ROOT.test(source) || EMPTY_CUSTOM_ROOT.test(source),
    NOSCRIPT_ABOUT_JS.test(source),
    inlineScriptBytes(source) >= LARGE_INLINE_SCRIPT_BYTES,
    BUNDLE_SCRIPT.test(source) || MODULE_SCRIPT.test(source) || PRELOADED_SCRIPT.test(source),
    AJAX_FRAGMENT.test(source),
  ].filter(Boolean).length;
  return extractedTextLength < LITTLE_TEXT_CHARS ? signals >= 1 : signals >= 2;
}

function inlineScriptBytes(html: string): number {
  let total = 0;
  for (const match of html.matchAll(/<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    total += match[1]?.length ?? 0;
  }
  return total;
}
