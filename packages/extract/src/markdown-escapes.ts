import {
  type NodeHtmlMarkdown,
  type NodeHtmlMarkdownOptions,
  PostProcessResult,
  type TranslatorConfig,
  type TranslatorConfigFactory,
} from 'node-html-markdown';
import { fencedLines } from './markdown-lines.js';

/**
 * The escapes node-html-markdown puts before what would start a list, a heading or a quote at the
 * beginning of a line (`\-`, `\+`, `\#`, `\>`, `\=`, `1\.`). It puts them at the start of every
 * text, wherever the text stands: a link's `--release` came out `[\--release](…)`.
 */
const LINE_START_ESCAPE = /^(\s*)(?:\\([-+=>#])|(\d+)\\([.)]))/;

/**
 * The converter's escape of what would start a list, a heading or a quote (its option
 * `lineStartEscape`), as node-html-markdown's own but with its numbered-item case held to a line's
 * start too. node-html-markdown's pattern tries that case at every digit, and each try reads on to
 * the end of the digits: a text of 200,000 digits took 13 s to convert, 1,000,000 would take
 * minutes. Anchored, a long text is read once. A number closed by `)` is escaped too (`2\) Take`):
 * CommonMark starts an ordered list with it as with `.`, and the converter's own left it.
 */
export const LINE_START_ESCAPE_OPTION: NodeHtmlMarkdownOptions['lineStartEscape'] = [
  /^(\s*?)(?:((?:\+\s)|[=>-]|(?:#{1,6}\s))|(\d+)([.)]\s))/gm,
  '$1$3\\$2$4',
];

/**
 * The converter's escape of a text's characters (its option `globalEscape`), as node-html-markdown's
 * own but for an underscore between two letters or digits, left as it is (`balance_transaction`,
 * not `balance\_transaction`): inside a word it cannot open or close emphasis. Identifiers read as
 * written. And a `<` where CommonMark starts an HTML tag, a comment or an autolink (before a letter,
 * `/`, `!` or `?`, or at a text's end, where the next element's text may give the letter), and a
 * `&` where it starts a character reference: a page's `Google "<noun>.js"` or `&amp;` written as text
 * read as a tag a renderer hides, or as `&`. `a < b` stays as it is.
 */
export const GLOBAL_ESCAPE: NodeHtmlMarkdownOptions['globalEscape'] = [
  /[\\`*~[\]]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])|<(?=[A-Za-z/!?]|$)|&(?=[A-Za-z][A-Za-z\d]{0,31};|#\d{1,7};|#[xX][\da-fA-F]{1,6};)/gu,
  '\\$&',
];

/** `text` without the escape it starts with, for text that cannot start a line of its own. */
export function unescapeLineStart(text: string): string {
  return text.replace(LINE_START_ESCAPE, (_, space: string, mark?: string, number?: string, dot?: string) =>
    mark === undefined ? `${space}${number}${dot}` : `${space}${mark}`,
  );
}

/**
 * A translator's config whose output, when its own postprocess gives text, goes through `then`
 * too; a config without a postprocess is left as it is.
 */
export function afterPostprocess(
  config: TranslatorConfig,
  then: (content: string) => string | PostProcessResult,
): TranslatorConfig {
  const postprocess = config.postprocess;
  if (postprocess === undefined) return config;
  return {
    ...config,
    postprocess: (ctx) => {
      const content = postprocess(ctx);
      return typeof content === 'string' ? then(content) : content;
    },
  };
}

/**
 * Links written without that escape (edits `converter`): a link's text follows its `[`, so it never
 * starts a line. A link that shows no text nor picture (an icon font's, a script's `#`) is left out:
 * `[](…)` says nothing to a reader, and sat between words. Bare links (`<https://…>`) and links
 * without a target are left as they are.
 */
export function mendLinkText(converter: NodeHtmlMarkdown): void {
  for (const translators of [converter.translators, converter.tableCellTranslators]) {
    const link = translators.get('a');
    if (typeof link !== 'function') continue;
    // Trimmed too: the spaces at a link's edges are moved out of it before (see spaceOutsideLinks);
    // those left are the line breaks around a block in it.
    const mended: TranslatorConfigFactory = (context) =>
      afterPostprocess(withUnderscores(link(context)), (content) =>
        content.trim() === '' ? PostProcessResult.RemoveNode : unescapeLineStart(content.trim()),
      );
    translators.set('a', mended);
  }
}

/**
 * A link's address with its underscores as the page wrote them: the converter writes each as `%5F`
 * (`#what%5Fis%5Fgit`, `tree/nbt%5Fexploit`), which CommonMark does not need in a destination and
 * a reader or a fragment lookup does not expect. An underscore is unreserved in a URL, so either
 * spelling names the same resource (RFC 3986, 2.3).
 */
function withUnderscores(config: TranslatorConfig): TranslatorConfig {
  const fix = (text: string | undefined) => text?.replaceAll('%5F', '_');
  return {
    ...config,
    ...(config.postfix !== undefined ? { postfix: fix(config.postfix) } : {}),
    ...(config.content !== undefined ? { content: fix(config.content) } : {}),
  };
}

/**
 * What may stand before a line's content: list, quote and heading markers, and indentation. Each
 * run of blanks is read one way only: written `(?:\s*marker\s+)*\s*`, the blanks between two markers
 * could be split between `\s+` and the next `\s*` in exponentially many ways (`1)  1)  1)  …x`,
 * twenty-two markers a tenth of a second, thirty half a minute, forty hours).
 */
const LINE_OPENING = /^\s*(?:(?:[-+*]|\d+[.)]|>|#{1,6})\s+)*$/;
/**
 * A code span (written as it is), a line-start escape not after an escaped backslash, an escaped
 * underscore between two letters or digits, or a pair of escaped brackets around text of no
 * bracket, backslash or backtick that no `(`, `[` (escaped or not) or `:` follows (group 5 that text).
 */
const SPAN_OR_ESCAPE =
  /(`+)[^`]*?\1|(?<!\\)(\d+)\\([.)])|(?<!\\)\\([-+=>#])|(?<=[\p{L}\p{N}])\\(_)(?=[\p{L}\p{N}])|(?<!\\)\\\[([^[\]\\`]*)\\\](?![([:]|\\\[)/gu;
/** Bracketed text that a GFM reader takes for markup however it is placed: a footnote's `[^1]`, a task's `[ ]` or `[x]`. */
const BRACKETED_MARKUP = /^(?:\^|[ xX]?$)/;

/**
 * `markdown` with its escapes mended line by line, outside code, in one walk:
 * - the line-start escapes that stand inside a line go (`DNS\-related`, `**"Jarvis"**\-like`,
 *   `[Desktop](…) \- Budgie`): node-html-markdown escapes the start of every text, and a text may
 *   start after a link or an emphasis. Where a line's content starts (after its list, quote or
 *   heading markers) the escape stays: there it keeps a list from starting. Links and table cells
 *   lose theirs in their translators already (see mendLinkText and mendTableCells), before the
 *   converter pads a table's columns to the text they show;
 * - an underscore between two letters or digits loses its escape (`balance\_transaction`): the
 *   converter escapes an underscore that starts or ends a text (see GLOBAL_ESCAPE), and a page may
 *   split a word there (`balance<!-- -->_<wbr/>transaction`). Inside a word it cannot open or close
 *   emphasis;
 * - brackets around a text lose their escapes where they cannot make a link (`\[1\]`,
 *   `\[email protected\]`, `\[city\]`): the converter escapes every bracket, and a citation's
 *   or a placeholder's backslashes are noise to a reader. The converter writes no link reference
 *   definitions, so `[1]` reads as text; balanced in a link's text or an alt it stays text too.
 *   Before `(`, `[` or `:` (a link, a reference, a definition) the escapes stay;
 * - a line that holds only a marker (`1.`, `2)`, `+`, `#`) is escaped: a page's numbered badge
 *   (`<div>1.</div>`) or a lone `+` came out as an empty list item, a lone `#` as an empty heading.
 *   node-html-markdown escapes these only when a space and text follow them.
 */
export function mendLineEscapes(markdown: string): string {
  return mapLinesOutsideFences(markdown, (line) => escapeBareMarker(unescapeMidLine(line)));
}

function unescapeMidLine(line: string): string {
  if (!line.includes('\\')) return line;
  return line.replace(
    SPAN_OR_ESCAPE,
    (
      match: string,
      span: string | undefined,
      digits: string | undefined,
      dot: string | undefined,
      mark: string | undefined,
      underscore: string | undefined,
      bracketed: string | undefined,
      at: number,
    ) => {
      if (underscore !== undefined) return underscore;
      if (bracketed !== undefined) return BRACKETED_MARKUP.test(bracketed) ? match : `[${bracketed}]`;
      return span !== undefined || LINE_OPENING.test(line.slice(0, at)) ? match : `${digits ?? ''}${dot ?? mark}`;
    },
  );
}

/**
 * A line whose content is only a list item's or a heading's marker (`1.`, `+`, `#`), after any list
 * and quote markers of its own: it would start one.
 */
const BARE_MARKER = /^(\s*(?:(?:[-+*]|\d+[.)]|>)\s+)*)(?:(\d{1,9})([.)])|([+#]))(#{0,5})\s*$/;

function escapeBareMarker(line: string): string {
  return line.replace(BARE_MARKER, (_, space: string, digits?: string, dot?: string, mark?: string, more?: string) =>
    digits === undefined ? `${space}\\${mark}${more}` : `${space}${digits}\\${dot}`,
  );
}

/** `markdown` with `map` applied to each line outside its fenced code blocks (fences included, as they are). */
function mapLinesOutsideFences(markdown: string, map: (line: string) => string): string {
  const lines = markdown.split('\n');
  const fenced = fencedLines(lines);
  return lines.map((line, i) => (fenced[i] ? line : map(line))).join('\n');
}

/** Plain paragraphs as Markdown: characters that would start a heading, list or emphasis escaped. */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_[\]<>#|])/g, '\\$1').replace(/^(\s*)([-+]|\d+\.)(\s)/gm, '$1\\$2$3');
}
