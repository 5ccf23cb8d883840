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
/** Scanning more than this is pointless for the decision. */
const MAX_SCAN_CHARS = 2_000_000;
/** How far into a `<noscript>` its plea for JavaScript is looked for. */
const NOSCRIPT_CHARS = 2_000;

/**
 * An opening tag that may carry a sign, with its attributes (up to 1,000 characters, and no `<`:
 * each attempt stops at the next tag, so the scan of a page is linear whatever the page holds; a
 * hostile page of unclosed tags once took the regular expressions here minutes).
 */
const TAG = /<(script|link|meta|noscript|div|main|section|body|app-root|ng-app|my-app|app)\b([^<>]{0,1000})>/gi;
/** Elements that mount a single-page app when their id or class names one. */
const ROOT_ELEMENTS = new Set(['div', 'main', 'section', 'body']);
/** Angular-style custom root elements. */
const CUSTOM_ROOTS = new Set(['app-root', 'app', 'ng-app', 'my-app']);
/** An `id` or `class` value, quoted or not (read one by one: a pattern spanning the value backtracked). */
const ID_OR_CLASS = /\b(?:id|class)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;
const ROOT_NAME = /\b(?:root|app|app-root|__next|__nuxt|___gatsby|svelte|main-app|application|mount|ember-app)\b/i;
/** Right after an opening tag: nothing (but space and one comment) before its closing tag. */
const EMPTY_UNTIL_CLOSE = /\s*(?:<!--(?:[^-]|-(?!->)){0,1000}-->\s*)?<\/([a-z-]+)\s*>/iy;
const SCRIPT_CLOSE = /<\/script\s*>/gi;
const SRC = /\bsrc\s*=\s*["']?([^"'\s>]+)/i;
/** Script names typical of bundlers (webpack/vite/parcel chunks, framework runtimes), then more name and `.js`. */
const BUNDLE_NAME = /(?:bundle|chunk|main|app|runtime|vendor|index)[.-]/i;
const JS_FILE = /\.m?js\b/i;
const MODULE_TYPE = /\btype\s*=\s*["']?module\b/i;
/** `rel=modulepreload`, or `rel=preload` with `as=script`: an app's script fetched ahead by a `<link>` (Discourse). */
const MODULE_PRELOAD = /\brel\s*=\s*["']?modulepreload\b/i;
const PRELOAD = /\brel\s*=\s*["']?preload\b/i;
const AS_SCRIPT = /\bas\s*=\s*["']?script\b/i;
/** `<meta name="fragment" content="!">`: the page says it is built by scripts (the AJAX crawling scheme). */
const FRAGMENT_NAME = /\bname\s*=\s*["']?fragment\b/i;
const FRAGMENT_CONTENT = /\bcontent\s*=\s*["']?!/i;

/** The signs of a page built by scripts that {@link needsRendering} counts. */
interface Signs {
  emptyRoot: boolean;
  noscriptAsksForJs: boolean;
  inlineScriptChars: number;
  appScripts: boolean;
  ajaxFragment: boolean;
}

/**
 * Whether a page is worth rendering with a browser: it has little extracted text AND shows signs
 * of being built by scripts (an empty app root, a `<noscript>` asking for JavaScript, a large
 * inline app, bundled, module or preloaded scripts, a `<meta name="fragment" content="!">`).
 * Cheap and conservative: rendering costs ~100× a fetch. One linear scan of the page's tags.
 *
 * @example needsRendering({ html: '<div id="root"></div><script src="/main.js"></script>', extractedTextLength: 0 }) // true
 */
export function needsRendering({ html, extractedTextLength }: RenderingSignals): boolean {
  if (extractedTextLength >= ENOUGH_TEXT_CHARS) return false;
  const text = typeof html === 'function' ? html() : html;
  const signs = readSigns(text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text);
  const count = [
    signs.emptyRoot,
    signs.noscriptAsksForJs,
    signs.inlineScriptChars >= LARGE_INLINE_SCRIPT_BYTES,
    signs.appScripts,
    signs.ajaxFragment,
  ].filter(Boolean).length;
  return extractedTextLength < LITTLE_TEXT_CHARS ? count >= 1 : count >= 2;
}

function readSigns(source: string): Signs {
  const signs: Signs = {
    emptyRoot: false,
    noscriptAsksForJs: false,
    inlineScriptChars: 0,
    appScripts: false,
    ajaxFragment: false,
  };
  const tags = new RegExp(TAG.source, TAG.flags);
  for (let m = tags.exec(source); m !== null; m = tags.exec(source)) {
    const name = (m[1] ?? '').toLowerCase();
    const attrs = m[2] ?? '';
    const end = tags.lastIndex;
    if (name === 'script') {
      const src = SRC.exec(attrs)?.[1];
      if (src !== undefined) {
        // A hashed or split bundle (`main.3f2a.js`, `chunk-vendors.js`), not a plain `main.js`.
        const named = BUNDLE_NAME.exec(src);
        if (named !== null && JS_FILE.test(src.slice(named.index + named[0].length))) signs.appScripts = true;
      }
      if (MODULE_TYPE.test(attrs)) signs.appScripts = true;
      // The script's text is skipped (its strings are not tags) and, inline, measured.
      SCRIPT_CLOSE.lastIndex = end;
      const close = SCRIPT_CLOSE.exec(source);
      const closeAt = close === null ? source.length : close.index;
      if (src === undefined) signs.inlineScriptChars += closeAt - end;
      tags.lastIndex = close === null ? source.length : SCRIPT_CLOSE.lastIndex;
    } else if (name === 'link') {
      if (MODULE_PRELOAD.test(attrs) || (PRELOAD.test(attrs) && AS_SCRIPT.test(attrs))) signs.appScripts = true;
    } else if (name === 'meta') {
      if (FRAGMENT_NAME.test(attrs) && FRAGMENT_CONTENT.test(attrs)) signs.ajaxFragment = true;
    } else if (name === 'noscript') {
      const inside = source.slice(end, end + NOSCRIPT_CHARS);
      const close = inside.search(/<\/noscript\s*>/i);
      if (/javascript/i.test(close < 0 ? inside : inside.slice(0, close))) signs.noscriptAsksForJs = true;
    } else if (!signs.emptyRoot && (CUSTOM_ROOTS.has(name) || (ROOT_ELEMENTS.has(name) && namesRoot(attrs)))) {
      EMPTY_UNTIL_CLOSE.lastIndex = end;
      const close = EMPTY_UNTIL_CLOSE.exec(source);
      // A custom root is empty only with nothing at all inside (a comment is content there).
      const comment = close?.[0].includes('<!--');
      if (close?.[1]?.toLowerCase() === name && !(CUSTOM_ROOTS.has(name) && comment)) signs.emptyRoot = true;
    }
  }
  return signs;
}

/** Whether an element's `id` or `class` names an app's mount point (`root`, `app`, `__next`...). */
function namesRoot(attrs: string): boolean {
  for (const m of attrs.matchAll(ID_OR_CLASS)) if (ROOT_NAME.test(m[1] ?? m[2] ?? m[3] ?? '')) return true;
  return false;
}
