import type { NodeHtmlMarkdown, TranslatorConfigFactory } from 'node-html-markdown';
import { BLOCK, HEADINGS, INVISIBLE, isHidden, PICTURES } from './text.js';

/**
 * Code blocks for the markdown (see markdown.ts): every `<pre>` fenced, with the language its
 * markup names. Readability removes class names, where most pages name it (Sphinx's
 * `<div class="highlight-python">`, `<code class="language-js">`), so the language is copied to the
 * `<pre>` as `data-lang` before Readability runs (see markCodeLanguages).
 */

/**
 * A code block's language in a class (`language-python`, `lang-js`, Sphinx's `highlight-python`,
 * GitHub's `highlight-source-python`, see scopeLanguage).
 */
const CLASS_LANGUAGE = /(?:^|\s)(?:language|lang|highlight)-([\w+#.-]{1,30})(?=\s|$)/;
/** SyntaxHighlighter's way of naming it, which MDN keeps: `class="brush: js notranslate"`. */
const BRUSH_LANGUAGE = /(?:^|\s)brush:\s*([\w+#.-]{1,30})/;
/** Class names of that form that name no language. */
const NO_LANGUAGE = new Set(['default', 'none', 'text', 'plain', 'plaintext', 'nohighlight']);
/**
 * A TextMate scope written with hyphens, as GitHub names a block's grammar
 * (`highlight-source-rust`, `highlight-text-html-basic`): its root (`source`, `text`) and the parts
 * after it, the language and what narrows it (`source-js-jsx`, `text-html-php`).
 */
const SCOPE_LANGUAGE = /^(?:source|text)-([\w+#.-]+)$/;
/** Parts of a scope that narrow a grammar without naming a language: `text.html.basic` is HTML. */
const SCOPE_QUALIFIERS = new Set(['basic', 'embedded', 'generic']);
/** The short names GitHub's scopes give a language that code fences name otherwise. */
const SCOPE_ALIASES: Readonly<Record<string, string>> = { md: 'markdown', gfm: 'markdown' };

/**
 * The language a class names: a TextMate scope's last part that names one (`source-c++` is `c++`,
 * `text-html-basic` `html`, `text-md` `markdown`), any other name as it is: a fence's info string
 * names a language, and `source-rust` is none a reader or a highlighter knows.
 */
function scopeLanguage(name: string): string {
  const scope = SCOPE_LANGUAGE.exec(name)?.[1];
  if (scope === undefined) return name;
  const parts = scope.split(/[-.]/).filter((part) => part !== '' && !SCOPE_QUALIFIERS.has(part));
  const last = parts[parts.length - 1] ?? name;
  return SCOPE_ALIASES[last] ?? last;
}

/** The language a code block declares: on the `<code>`, the `<pre>` or the two elements around it. */
function codeLanguage(pre: Element, code: Element | null): string | null {
  const data = pre.getAttribute('data-lang') ?? pre.getAttribute('data-language') ?? code?.getAttribute('data-lang');
  if (data && /^[\w+#.-]{1,30}$/.test(data)) return NO_LANGUAGE.has(data.toLowerCase()) ? null : data.toLowerCase();
  let el: Element | null = code ?? pre;
  for (let level = 0; el !== null && level < 4; level++, el = el === code ? pre : el.parentElement) {
    const classes = el.getAttribute('class') ?? '';
    const named = (CLASS_LANGUAGE.exec(classes) ?? BRUSH_LANGUAGE.exec(classes))?.[1]?.toLowerCase();
    if (named === undefined) continue;
    const found = scopeLanguage(named);
    return NO_LANGUAGE.has(found) ? null : found;
  }
  return null;
}

/** What a block of no text may still show. */
const PICTURE_SELECTOR = Array.from(PICTURES).join(', ');

/**
 * Makes every `<pre>` under `root` a code block for node-html-markdown (edits `root`): it fences
 * only a `<pre>` whose one child is a `<code>`, and writes any other (Sphinx's and Pygments'
 * `<pre><span>…`, a man page's `<pre>`) as loose lines, where its indentation then reads as markdown.
 * The block's language, where its markup names one, goes on the `<code>` as `language-…`. A blank
 * `<pre>` goes.
 */
export function fenceCodeBlocks(root: Element): void {
  const doc = root.ownerDocument;
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    if (pre.parentElement?.closest('pre') != null) continue;
    if ((pre.textContent ?? '').trim() === '') {
      // A blank block shows nothing; the converter wrote it as an empty fenced block.
      if (pre.querySelector(PICTURE_SELECTOR) === null) pre.remove();
      continue;
    }
    const children = Array.from(pre.childNodes);
    const blank = (node: Node): boolean => node.nodeType === 3 && (node.nodeValue ?? '').trim() === '';
    const only = children.filter((node) => !blank(node));
    let code: Element;
    if (only.length === 1 && only[0]?.nodeType === 1 && (only[0] as Element).localName.toLowerCase() === 'code') {
      code = only[0] as Element;
      for (const node of children) if (node !== code) node.remove();
    } else {
      code = doc.createElement('code');
      for (const node of children) code.appendChild(node);
      pre.appendChild(code);
    }
    trimTrailingSpace(code);
    writeAsText(code);
    const language = codeLanguage(pre, code);
    if (language !== null && !/(?:^|\s)language-/.test(code.getAttribute('class') ?? '')) {
      code.setAttribute('class', `language-${language} ${code.getAttribute('class') ?? ''}`.trim());
    }
  }
}

/**
 * Replaces a code block's markup (a highlighter's spans, one or more per token) by the text
 * node-html-markdown writes for it: its text, `<br>` a line break, `<hr>` `---`, a heading in brackets,
 * no pictures (its code block translators). The converter parses the block again and takes time
 * that grows with the square of the children of one element: a block of 20,000 highlighted lines
 * took 7 s.
 */
function writeAsText(code: Element): void {
  if (code.firstElementChild === null) return;
  let text = '';
  const read = (node: Node): void => {
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === 3) text += child.nodeValue ?? '';
      if (child.nodeType !== 1) continue;
      const name = (child as Element).localName.toLowerCase();
      if (name === 'br') text += '\n';
      else if (name === 'hr') text += '---';
      else if (HEADINGS.has(name)) {
        text += '[';
        read(child);
        text += ']';
      } else if (name !== 'img') read(child);
    }
  };
  read(code);
  code.textContent = text;
}

/** The elements written as a code span: code, a key or keys pressed, a program's output. */
export const CODE_SPANS: ReadonlySet<string> = new Set(['code', 'kbd', 'samp']);

/**
 * Inline code as markdown can write it (edits `root`; after {@link fenceCodeBlocks}): a code span
 * shows its text as it stands, so bold, italics or code inside one showed their marks
 * (`` `**break**;` ``, nginx's directives; `` `-H *user*@*host*` ``, ArchWiki's placeholders) and
 * a link inside one its brackets and address (`` `[+ipc](…)` ``, a Gentoo package's flags). Each
 * of {@link CODE_SPANS} outside code blocks keeps only its text, a line break as a space (nested
 * keys, `<kbd><kbd>Ctrl</kbd>+<kbd>C</kbd></kbd>`, are one span); a link in it is taken out
 * around a `<code>` of its own text: `<code><a href="…">From</a>&lt;T&gt;</code>` is written
 * ``[`From`](…)`<T>` ``. Returns how many were rewritten.
 */
export function plainCodeSpans(root: Element): number {
  const spans: Element[] = [];
  const walk = (el: Element): void => {
    for (let child = el.firstElementChild; child !== null; child = child.nextElementSibling) {
      const name = child.localName.toLowerCase();
      if (name === 'pre') continue;
      if (!CODE_SPANS.has(name)) walk(child);
      else if (child.firstElementChild !== null) spans.push(child);
    }
  };
  walk(root);
  for (const code of spans) {
    // In a link already, a link in it can only be written as text.
    const parts = spanParts(code, code.parentElement?.closest('a') != null);
    if (!parts.some((part) => part.link !== null)) {
      code.textContent = parts.map((part) => part.text).join('');
      continue;
    }
    const doc = code.ownerDocument;
    for (const { link, text } of parts) {
      if (text === '') continue;
      const span = doc.createElement('code');
      span.textContent = text;
      if (link === null) code.before(span);
      else {
        const outer = link.cloneNode(false) as Element;
        outer.appendChild(span);
        code.before(outer);
      }
    }
    code.remove();
  }
  return spans.length;
}

/** The text of inline `code`, in runs each inside one link (with its link) or in none. */
function spanParts(code: Element, inLink: boolean): Array<{ link: Element | null; text: string }> {
  const parts: Array<{ link: Element | null; text: string }> = [];
  const add = (link: Element | null, text: string): void => {
    const last = parts.at(-1);
    if (last !== undefined && last.link === link) last.text += text;
    else parts.push({ link, text });
  };
  const read = (node: Node, link: Element | null): void => {
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) add(link, child.nodeValue ?? '');
      if (child.nodeType !== ELEMENT_NODE) continue;
      const el = child as Element;
      const name = el.localName.toLowerCase();
      if (name === 'br') add(link, ' ');
      else if (name === 'a' && link === null && !inLink && el.hasAttribute('href')) read(el, el);
      else if (name !== 'img') read(el, link);
    }
  };
  read(code, null);
  return parts;
}

/** Removes the blank lines and spaces a code block ends with (they would stand before its closing fence). */
function trimTrailingSpace(code: Element): void {
  // Bounded: a block ending in a thousand empty spans is left with some.
  for (let step = 0; step < 100; step++) {
    let last: Node | null = code.lastChild;
    while (last !== null && last.nodeType === 1 && last.lastChild !== null) last = last.lastChild;
    if (last === null || last.nodeType !== 3) return;
    const trimmed = (last.nodeValue ?? '').trimEnd();
    if (trimmed !== '') {
      last.nodeValue = trimmed;
      return;
    }
    last.parentNode?.removeChild(last);
  }
}

/**
 * Copies each code block's language, named in a class of the `<pre>`, its `<code>` or the elements
 * around them, to the `<pre>` as `data-lang`, which Readability keeps (see the module comment).
 * `elements` are a body's elements, read in one walk shared with other steps.
 */
export function markCodeLanguages(elements: readonly Element[]): void {
  for (const el of elements) {
    if (el.localName.toLowerCase() !== 'pre' || el.hasAttribute('data-lang')) continue;
    const code = el.querySelector('code');
    const language = codeLanguage(el, code);
    if (language === null) continue;
    el.setAttribute('data-lang', language);
    dropLanguageLabel(el, language);
  }
}

/** How far up from a code block its language's label is looked for (the block's wrappers). */
const MAX_LABEL_HOPS = 3;

/**
 * Removes the label that names a code block's language just above it (MDN's `js` in the block's
 * header): the fence says it, and as text it read as a line of the page. A label is the element
 * right before the block, or before a wrapper that holds nothing else, whose whole text is the
 * language's name.
 */
function dropLanguageLabel(pre: Element, language: string): void {
  let block: Element = pre;
  for (let hops = 0; hops <= MAX_LABEL_HOPS; hops++) {
    const label = block.previousElementSibling;
    if (label !== null) {
      if (label.children.length <= 2 && (label.textContent ?? '').trim().toLowerCase() === language) label.remove();
      return;
    }
    const parent = block.parentElement;
    if (parent === null || parent.localName.toLowerCase() === 'body') return;
    block = parent;
  }
}

/** The class of a code block's gutter or line number (`nes-gutter-indicator`, `line-num`). */
const GUTTER_CLASS = /(?:^|[\s_-])(?:gutter|line-?nums?|line-?numbers?|linenos?)(?:$|[\s_-])/i;

/**
 * Whether an element inside a `<pre>` is its gutter: so named and showing only numbers. Code-prettify's
 * `<ol class="linenums">` holds the code, its numbers drawn as the list's.
 */
function isGutter(el: Element): boolean {
  return GUTTER_CLASS.test(el.getAttribute('class') ?? '') && /^[\s\d~]*$/.test(el.textContent ?? '');
}

/**
 * Writes each code block whose lines are block elements inside its `<pre>` as those lines of text
 * (edits the page): Docusaurus's `<div class="token-line">`, CodeMirror's `<div class="cm-line">`,
 * Expressive Code's `<div class="ec-line">`, a docs site's `<pre><div><span>…`. A browser starts
 * each block on a line of its own and keeps the spaces of the `<pre>`; the plain text read each
 * line as a paragraph, without its indentation, and the markdown ran the block into one line. A
 * `<br>` ending a line's block adds no empty line after it, as in a browser. Hidden elements,
 * controls (see text.ts) and a gutter's line numbers are not the code, nor are the blank lines
 * they leave at its ends, nor spaces ending a line. The `<pre>`'s own `<code>`, and with it the
 * language its class names, is kept. Returns how many blocks were rewritten.
 */
export function flattenCodeLines(elements: readonly Element[]): number {
  let rewritten = 0;
  for (const pre of elements) {
    if (pre.localName.toLowerCase() !== 'pre' || !pre.isConnected || pre.parentElement?.closest('pre') != null)
      continue;
    if (!hasBlockLines(pre)) continue;
    const lines = renderedLines(pre);
    const only = Array.from(pre.children);
    const code = only.length === 1 && only[0]?.localName.toLowerCase() === 'code' ? only[0] : pre;
    code.textContent = lines;
    if (code !== pre) for (const node of Array.from(pre.childNodes)) if (node !== code) node.remove();
    rewritten++;
  }
  return rewritten;
}

/**
 * Whether a `<pre>` holds block elements, and no table: a table is laid out by its cells, which a
 * line of text cannot show (line-numbers.ts reads a gutter's).
 */
function hasBlockLines(pre: Element): boolean {
  let block = false;
  for (const el of Array.from(pre.querySelectorAll('*'))) {
    const name = el.localName.toLowerCase();
    if (name === 'table') return false;
    if (BLOCK.has(name)) block = true;
  }
  return block;
}

/** The text of a `<pre>` as a browser lays it out: `<br>` and the edges of blocks break lines, spaces kept. */
function renderedLines(pre: Element): string {
  let out = '';
  const breakLine = (): void => {
    if (out !== '' && !out.endsWith('\n')) out += '\n';
  };
  const walk = (node: Node): void => {
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) {
        out += child.nodeValue ?? '';
        continue;
      }
      if (child.nodeType !== ELEMENT_NODE) continue;
      const el = child as Element;
      const name = el.localName.toLowerCase();
      if (name === 'br') out += '\n';
      else if (INVISIBLE.has(name) || isHidden(el) || isGutter(el)) continue;
      else if (BLOCK.has(name)) {
        breakLine();
        walk(el);
        breakLine();
      } else walk(el);
    }
  };
  walk(pre);
  // The blank lines that hidden and control lines leave at the ends, and the spaces ending a line
  // (a highlighter's `&nbsp;` padding).
  return out.replace(/[^\S\n]+$/gm, '').replace(/^\n+|\n+$/g, '');
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** The fence node-html-markdown opens and closes a code block with. */
const FENCE = '```';

/**
 * Fences each code block with one backtick more than the longest run of three or more in its code
 * (edits `converter`): node-html-markdown always fences with three, so a block that shows a
 * fence of its own (a markdown tutorial's, a README's) was closed there, and the rest of it read
 * as text.
 */
export function fenceAroundFences(converter: NodeHtmlMarkdown): void {
  const code = converter.translators.get('code');
  if (typeof code !== 'function') return;
  const fenced: TranslatorConfigFactory = (context) => {
    const config = code(context);
    if (!config.prefix?.startsWith(FENCE) || !config.postfix?.endsWith(FENCE)) return config;
    const runs = context.node.textContent.match(/`{3,}/g) ?? [];
    if (runs.length === 0) return config;
    const fence = '`'.repeat(Math.max(...runs.map((run) => run.length)) + 1);
    return {
      ...config,
      prefix: fence + config.prefix.slice(FENCE.length),
      postfix: config.postfix.slice(0, -FENCE.length) + fence,
    };
  };
  converter.translators.set('code', fenced);
}
