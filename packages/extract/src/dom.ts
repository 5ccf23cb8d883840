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
  /** The implementation that built it (linkedom hands shapes it cannot build to jsdom). */
  impl: DomImpl;
  close(): void;
}

/** Openings of what no extractor reads; attribute text is bounded so a stray `<script` stays linear. */
const INERT_OPEN = /<(script|style|svg)\b([^>]{0,1000})>|<!--/gi;
const INERT_CLOSE: Readonly<Record<string, RegExp>> = {
  script: /<\/script\s*>/gi,
  style: /<\/style\s*>/gi,
  svg: /<\/svg\s*>/gi,
};

/**
 * Drops what no extractor reads (scripts but JSON-LD, styles, comments, inline SVG) before
 * parsing, so the DOM is smaller. One forward scan, linear in the input whatever its shape (a
 * regex with a lazy body would rescan to the end for every unclosed `<script`). Like the HTML
 * tokenizer, an unclosed script, style or comment runs to the end of the document.
 */
export function stripInert(html: string): string {
  const open = new RegExp(INERT_OPEN.source, 'gi');
  const unclosed = new Set<string>();
  let out = '';
  let kept = 0;
  for (let m = open.exec(html); m !== null; m = open.exec(html)) {
    const start = m.index;
    let end: number;
    if (m[0] === '<!--') {
      const close = html.indexOf('-->', open.lastIndex);
      end = close < 0 ? html.length : close + 3;
    } else {
      const tag = (m[1] ?? '').toLowerCase();
      if (unclosed.has(tag)) continue;
      const closeRe = INERT_CLOSE[tag] as RegExp;
      closeRe.lastIndex = open.lastIndex;
      const close = closeRe.exec(html);
      if (tag === 'script' && /application\/ld\+json/i.test(m[2] ?? '')) {
        // Keep JSON-LD whole, and do not look for comments or tags inside it.
        if (close) open.lastIndex = close.index + close[0].length;
        continue;
      }
      if (!close) {
        // An unclosed <svg> is just an element; stop looking for its end.
        if (tag === 'svg') {
          unclosed.add(tag);
          continue;
        }
        end = html.length;
      } else {
        end = close.index + close[0].length;
      }
    }
    out += html.slice(kept, start);
    kept = end;
    open.lastIndex = end;
  }
  return out + html.slice(kept);
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
    return { document: jsdom.window.document, impl: 'jsdom', close: () => jsdom.window.close() };
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
  return { document: document as unknown as Document, impl: 'linkedom', close: () => {} };
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
