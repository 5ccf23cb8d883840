import type { Token, Tokens } from 'marked';

/**
 * The targets of a markdown file's links, images and link reference definitions resolved against
 * the file's URL (see resolveLinkTargets), as a page's HTML links are in its markdown (markdown.ts):
 * `[mirror](/mirror/frob.tgz)` read out of its file leads nowhere. marked's lexer finds them, so
 * code blocks, code spans and text that only looks like a link are left as they are; its tokens
 * carry no positions, so each is found again in the source, in document order. A link written
 * over lines of a quote or a list item, which marked holds without the lines' markers, is left as
 * written.
 */

/** A URL with its own scheme (`https:`, `mailto:`): it needs no base. */
const ABSOLUTE = /^[a-z][a-z\d+.-]*:/i;
/** A backslash escape in a destination, which CommonMark reads as the character (as marked's `href` holds it). */
const ESCAPED = /\\([!-/:-@[-`{-~])/g;
/** What may follow a link's destination: a title, then the closing parenthesis, the raw's end. */
const LINK_TAIL =
  /^[ \t]*\n?[ \t]*(?:(?:"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|\((?:\\.|[^()\\])*\))[ \t]*\n?[ \t]*)?\)$/s;

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * `markdown` with the relative targets of its links, images and definitions (`api.md`,
 * `/mirror/frob.tgz`, `img/logo.png`) made absolute against `url`. Absolute targets, `mailto:` and
 * other schemes, a fragment alone (`#usage`, a place in the file itself) and targets that do not
 * resolve are left as written. `tokens` are marked's lexing of `markdown`, its line breaks `\n`.
 *
 * @example resolveLinkTargets('[the API](api.md)', lexed, 'https://x.org/docs/a.md') // '[the API](https://x.org/docs/api.md)'
 */
export function resolveLinkTargets(markdown: string, tokens: readonly Token[], url: string): string {
  const edits: Edit[] = [];
  let offset = 0;
  for (const token of tokens) {
    // The top-level tokens' raws are the source, in order; each is searched within its own span.
    const start = markdown.startsWith(token.raw, offset) ? offset : markdown.indexOf(token.raw, offset);
    if (start < 0) continue;
    const end = start + token.raw.length;
    const scan = { markdown, end, cursor: start, missed: 0, inCell: false, url, edits };
    visit(token, scan);
    offset = end;
  }
  // A picture in a link is found after the link.
  const parts: string[] = [];
  let copied = 0;
  for (const edit of edits.sort((a, b) => a.start - b.start)) {
    parts.push(markdown.slice(copied, edit.start), edit.text);
    copied = edit.end;
  }
  parts.push(markdown.slice(copied));
  return parts.join('');
}

interface Scan {
  readonly markdown: string;
  /** Where the top-level block being read ends. */
  readonly end: number;
  /** Where the next token is looked for: after the last one found. */
  cursor: number;
  /** How much the tokens not found since the last one found held: the next one may be that far on. */
  missed: number;
  /** Whether a table's cell is read, whose tokens' raws hold its `\|` as `|`. */
  inCell: boolean;
  readonly url: string;
  readonly edits: Edit[];
}

/**
 * How far past the cursor (and what was not found) a token is looked for: room for the markers
 * between two tokens (a quote's `>`, a list's indentation, a table's delimiter row). Bounded, a
 * file of tokens that are not found reads in linear time.
 */
const SEARCH_SLACK_CHARS = 4_096;

/**
 * Where `raw` starts in the markdown, at or after the cursor, or -1. Its first line is looked for:
 * in a quote or a list item the lines after it lost their markers and indentation.
 */
function locate(scan: Scan, raw: string): number {
  const firstLine = raw.split('\n', 1)[0] as string;
  if (firstLine === '') {
    scan.missed += raw.length;
    return -1;
  }
  const limit = Math.min(scan.end, scan.cursor + scan.missed + raw.length + SEARCH_SLACK_CHARS);
  const found = scan.markdown.slice(scan.cursor, limit).indexOf(firstLine);
  if (found < 0) {
    scan.missed += raw.length;
    return -1;
  }
  scan.missed = 0;
  return scan.cursor + found;
}

/** Reads `token` and those inside it, moving `scan.cursor` past each found. */
function visit(token: Token, scan: Scan): void {
  if (token.type === 'table') {
    // A cell's `\|` (a pipe in its text or code) is `|` in its tokens: looked for as written.
    const table = token as Tokens.Table;
    scan.inCell = true;
    for (const cell of [...table.header, ...table.rows.flat()]) for (const child of cell.tokens) visit(child, scan);
    scan.inCell = false;
    return;
  }
  const inner: Token[] =
    token.type === 'list'
      ? (token as Tokens.List).items
      : 'tokens' in token && Array.isArray(token.tokens)
        ? token.tokens
        : [];
  const targeted = token.type === 'link' || token.type === 'image' || token.type === 'def';
  if (!targeted && inner.length > 0) {
    // A block's raw may differ from the source (a quote's lines without their `>`): only what it
    // holds is looked for.
    for (const child of inner) visit(child, scan);
    return;
  }
  const raw = scan.inCell ? token.raw.replaceAll('|', '\\|') : token.raw;
  const at = locate(scan, raw);
  if (at < 0) return;
  // Edited only where the whole raw stands as the source writes it, not a link over lines of a quote.
  const whole = scan.markdown.startsWith(raw, at);
  if (targeted && whole) {
    const href = (token as Tokens.Link | Tokens.Image | Tokens.Def).href;
    const target = targetSpan(raw, token.type === 'def', href);
    const resolved = target === null ? null : resolvedTarget(href, scan.url, target.angled);
    if (target !== null && resolved !== null) {
      scan.edits.push({ start: at + target.start, end: at + target.end, text: resolved });
    }
  }
  // A link's text (a picture in it) comes next; an image's alt holds no link.
  scan.cursor = at;
  if (token.type === 'link') for (const child of inner) visit(child, scan);
  scan.cursor = Math.max(scan.cursor, at + (whole ? raw.length : (raw.split('\n', 1)[0] as string).length));
}

/**
 * Where the destination stands in a link's or an image's raw (`[text](dest "title")`) or a
 * definition's (`[label]: dest "title"`), and whether it is written in angle brackets; null when
 * the raw has none (a reference, `[text][label]`) or none that reads as `href`.
 */
function targetSpan(
  raw: string,
  definition: boolean,
  href: string,
): { start: number; end: number; angled: boolean } | null {
  if (definition) {
    // A label holds no unescaped bracket: its first one closes it.
    const close = /^[ ]{0,3}\[(?:\\.|[^\\\]])*\]:/s.exec(raw);
    if (close === null) return null;
    const span = destination(raw, close[0].length);
    return span !== null && span.href === href ? span : null;
  }
  // The text may hold `](` (in code, in a picture): the first place a destination reads as `href`
  // and ends the raw is the one.
  for (let open = raw.indexOf(']('); open >= 0; open = raw.indexOf('](', open + 1)) {
    const span = destination(raw, open + 2);
    if (span !== null && span.href === href && LINK_TAIL.test(raw.slice(span.end + (span.angled ? 1 : 0)))) {
      return span;
    }
  }
  return null;
}

/**
 * The destination that starts at `from` (after blanks and one line break), as CommonMark reads
 * one: in angle brackets, or a run without blanks or control characters whose parentheses balance.
 * `start` and `end` bound what is written between any angle brackets; `href` is it unescaped.
 */
function destination(raw: string, from: number): { start: number; end: number; angled: boolean; href: string } | null {
  let at = from + (/^[ \t]*\n?[ \t]*/.exec(raw.slice(from))?.[0].length ?? 0);
  if (raw[at] === '<') {
    const start = at + 1;
    for (at = start; at < raw.length && raw[at] !== '>'; at += raw[at] === '\\' ? 2 : 1) {
      if (raw[at] === '<' || raw[at] === '\n') return null;
    }
    if (at >= raw.length) return null;
    return { start, end: at, angled: true, href: raw.slice(start, at).replace(ESCAPED, '$1') };
  }
  const start = at;
  let depth = 0;
  for (; at < raw.length; at += 1) {
    const char = raw[at] as string;
    if (char === '\\' && at + 1 < raw.length) at += 1;
    else if (char <= ' ') break;
    else if (char === '(') depth += 1;
    else if (char === ')' && depth-- === 0) break;
  }
  return at === start ? null : { start, end: at, angled: false, href: raw.slice(start, at).replace(ESCAPED, '$1') };
}

/**
 * `href` resolved against `url`, written as a destination (parentheses escaped outside angle
 * brackets); null for a target left as written.
 */
function resolvedTarget(href: string, url: string, angled: boolean): string | null {
  if (href === '' || href.startsWith('#') || ABSOLUTE.test(href)) return null;
  let resolved: string;
  try {
    resolved = new URL(href, url).href;
  } catch {
    return null;
  }
  return angled ? resolved : resolved.replace(/[()]/g, '\\$&');
}
