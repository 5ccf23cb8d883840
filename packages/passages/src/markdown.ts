/** One markdown heading: its level (1 to 6) and its text without markup. */
export interface MarkdownHeading {
  readonly level: number;
  readonly text: string;
}

/** The opening `#`s and the rest of the line, matched in one pass; {@link atxHeadingText} trims the rest. */
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]([\s\S]*))?$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** One non-blank line of a markdown document as it reads: its visible text, and its level if a heading. */
export interface MarkdownLine {
  /** The text without markup (no `#`, list or quote markers, links, emphasis). */
  readonly text: string;
  /** 1 to 6 for a heading line, else undefined. */
  readonly headingLevel?: number;
}

const LINE_MARKERS = /^\s*(?:>\s*)*(?:[-*+]\s+|\d+[.)]\s+)?(?:\[[ xX]\]\s+)?/;

/**
 * The lines of a markdown document as a reader sees them, headings marked (ATX `## Title` and
 * setext underlines), so that each can be compared with the same line of the plain text. Lines of
 * fenced code are kept as they are and are never headings.
 */
export function markdownLines(markdown: string): MarkdownLine[] {
  const out: MarkdownLine[] = [];
  // Every line break counts (a lone \r, U+2028, U+2029): the page's text breaks lines at U+2028 too.
  const lines = markdown.split(/\r\n|\r|\n|\u2028|\u2029/);
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1]!.slice(0, 3);
      if (fence === null) fence = marker;
      else if (fence === marker) fence = null;
      continue;
    }
    if (fence !== null) {
      if (line.trim() !== '') out.push({ text: line.trim() });
      continue;
    }
    const atx = ATX_HEADING.exec(line);
    if (atx) {
      out.push({ text: stripInlineMarkup(atxHeadingText(atx[2] ?? '')), headingLevel: atx[1]!.length });
      continue;
    }
    const next = lines[i + 1];
    const underline = next === undefined ? null : SETEXT_UNDERLINE.exec(next);
    if (underline && line.trim() !== '' && !/^ {0,3}[-*+>]/.test(line)) {
      out.push({ text: stripInlineMarkup(line), headingLevel: underline[1]!.startsWith('=') ? 1 : 2 });
      i++;
      continue;
    }
    const text = stripInlineMarkup(line.replace(LINE_MARKERS, ''));
    if (text !== '') out.push({ text });
  }
  return out.filter((l) => l.text !== '');
}

/**
 * An ATX heading's content without its trailing spaces and its closing `#`s, which are only such
 * when a space or tab comes before them or they are all there is (`# C#` keeps its `#`).
 */
function atxHeadingText(content: string): string {
  let end = content.length;
  while (end > 0 && isSpaceOrTab(content[end - 1]!)) end--;
  let hashes = end;
  while (hashes > 0 && content[hashes - 1] === '#') hashes--;
  if (hashes < end && (hashes === 0 || isSpaceOrTab(content[hashes - 1]!))) end = hashes;
  return content.slice(0, end);
}

function isSpaceOrTab(char: string): boolean {
  return char === ' ' || char === '\t';
}

/** The headings of a markdown document in order, with inline markup removed. */
export function markdownHeadings(markdown: string): MarkdownHeading[] {
  return markdownLines(markdown).flatMap((l) => (l.headingLevel ? [{ level: l.headingLevel, text: l.text }] : []));
}

/**
 * A link's text and target as `[text](target "title")`, one level of parentheses allowed in the
 * target (`Foo_(bar)`). No bracket in the text and no stray parenthesis in the target: a scan from
 * one `[` or `(` then ends at the next, so a line of thousands of them costs linear time.
 */
const LINK = /\[([^[\]]*)\]\((?:[^()]|\([^()]*\))*\)/g;
const IMAGE = new RegExp(`!${LINK.source}`, 'g');
/** An HTML tag; no `<` inside, for the same reason. */
const HTML_TAG = /<[^<>]+>/g;

/** Removes links, images, emphasis, code ticks and backslash escapes, keeping the visible text. */
export function stripInlineMarkup(text: string): string {
  return text
    .replace(IMAGE, '$1')
    .replace(LINK, '$1')
    .replace(HTML_TAG, '')
    .replace(/(\*\*|__|\*|_|~~|`)/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!>~|])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

const BLOCK_MARKER = /^([#>*+-])(\s)/;
const ORDERED_MARKER = /^(\d+)([.)])(\s)/;

/**
 * Markdown for a page stored without it (imported as plain text): each paragraph of `bodyText`
 * (lines separated by blank lines) becomes a markdown paragraph, its line breaks kept as hard
 * breaks, and text that would read as markup at a line start (`# `, `- `, `1. `, `> `) is escaped.
 */
export function markdownFromText(bodyText: string): string {
  return bodyText
    .split(/\n\s*\n/)
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '')
        .map((line) => line.replace(BLOCK_MARKER, '\\$1$2').replace(ORDERED_MARKER, '$1\\$2$3'))
        .join('  \n'),
    )
    .filter((paragraph) => paragraph !== '')
    .join('\n\n');
}

/** What {@link pageMarkdown} needs of a stored page. */
export interface MarkdownSource {
  readonly body_text: string;
  readonly body_markdown?: string;
}

/** A page's markdown: the stored `body_markdown`, else markdown made from its text paragraphs. */
export function pageMarkdown(page: MarkdownSource): string {
  return page.body_markdown ?? markdownFromText(page.body_text);
}
