/** One markdown heading: its level (1 to 6) and its text without markup. */
export interface MarkdownHeading {
  readonly level: number;
  readonly text: string;
}

const ATX_HEADING = /^ {0,3}(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$/;
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
  const lines = markdown.split(/\r?\n/);
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
      out.push({ text: stripInlineMarkup(atx[2]!), headingLevel: atx[1]!.length });
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

/** The headings of a markdown document in order, with inline markup removed. */
export function markdownHeadings(markdown: string): MarkdownHeading[] {
  return markdownLines(markdown).flatMap((l) => (l.headingLevel ? [{ level: l.headingLevel, text: l.text }] : []));
}

/** Removes links, images, emphasis, code ticks and backslash escapes, keeping the visible text. */
export function stripInlineMarkup(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
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
