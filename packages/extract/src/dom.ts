import { parseHTML } from 'linkedom';

type JsdomModule = typeof import('jsdom');
let jsdomModule: JsdomModule | undefined;

/**
 * jsdom is loaded on first use through Node's own `require`: it is only needed as the reference
 * and fallback, and its ESM-only dependencies load natively that way (Node 20.19+ `require(esm)`)
 * even inside test runners whose module loader cannot require ESM.
 */
function loadJsdom(): JsdomModule {
  // getBuiltinModule hands out Node's real `module`, which test runners do not patch.
  const { createRequire } = process.getBuiltinModule('node:module');
  jsdomModule ??= createRequire(import.meta.url)('jsdom') as JsdomModule;
  return jsdomModule;
}

/**
 * The DOM implementation that parses the page. `jsdom` is the reference (a spec-complete HTML5
 * parser); `linkedom` is several times faster and is the default because the golden tests show
 * the same extraction quality (see bench/extract.mjs).
 */
export type DomImpl = 'jsdom' | 'linkedom';

/** A parsed document and how to release it. */
export interface ParsedDocument {
  document: Document;
  close(): void;
}

/** Scripts (except JSON-LD), styles and comments: never text, often half of a page's bytes. */
const SCRIPT = /<script\b(?![^>]*application\/ld\+json)[^>]*>[\s\S]*?<\/script\s*>/gi;
const STYLE = /<style\b[^>]*>[\s\S]*?<\/style\s*>/gi;
const COMMENT = /<!--[\s\S]*?-->/g;
/** Inline SVG: drawings, no text worth indexing, and often large. */
const SVG = /<svg\b[\s\S]*?<\/svg\s*>/gi;

/**
 * Drops what no extractor reads (scripts but JSON-LD, styles, comments, inline SVG) before
 * parsing, so the DOM is smaller. The HTML tokenizer ends a
 * script at the first `</script`, which is what the lazy pattern matches too.
 */
export function stripInert(html: string): string {
  return html.replace(SCRIPT, '').replace(STYLE, '').replace(COMMENT, '').replace(SVG, '');
}

/**
 * Parses HTML without running scripts or loading anything: jsdom is built without `runScripts`
 * and `resources` (its defaults load nothing) and with a silent console; linkedom never loads.
 */
export function parseDocument(html: string, url: string, dom: DomImpl): ParsedDocument {
  if (dom === 'jsdom') {
    const { JSDOM, VirtualConsole } = loadJsdom();
    const jsdom = new JSDOM(html, {
      url: safeUrl(url),
      contentType: 'text/html',
      virtualConsole: new VirtualConsole(),
    });
    return { document: jsdom.window.document, close: () => jsdom.window.close() };
  }
  // linkedom does not build the implied <html>/<body> of the HTML5 tree construction rules, and
  // anything before <html> becomes the root; when the shape is still wrong, jsdom parses it.
  const { document } = parseHTML(withBody(fromHtmlTag(html)));
  if (document.documentElement?.nodeName !== 'HTML' || !document.body) {
    try {
      return parseDocument(html, url, 'jsdom');
    } catch {
      // jsdom cannot load in this runtime (see loadJsdom); linkedom's tree still has the text.
    }
  }
  return { document: document as unknown as Document, close: () => {} };
}

/** Drops junk before `<html>` (stray text, wrapper elements), which browsers ignore or hoist. */
function fromHtmlTag(html: string): string {
  const at = html.search(/<html[\s>]/i);
  return at > 0 && /<[a-z]/i.test(html.slice(0, at)) ? html.slice(at) : html;
}

function withBody(html: string): string {
  if (/<body[\s>]/i.test(html)) return html;
  if (/<\/head\s*>/i.test(html)) return html.replace(/<\/head\s*>/i, '$&<body>');
  return `<!DOCTYPE html><html><head></head><body>${html}</body></html>`;
}

function safeUrl(url: string): string | undefined {
  try {
    return new URL(url).href;
  } catch {
    return undefined;
  }
}
