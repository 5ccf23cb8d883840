// The extraction benchmark's data sets (../shared/testdata): loading, the fixed halves and the
// per-set scoring rules. Each set is split into two fixed halves by a hash of the page's name, so a
// heuristic tuned on half A is judged on half B, which nobody looked at while writing it:
//   half = first byte of sha1(name) is even ? 'A' (tuning) : 'B' (held out).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { normalizeLang, parseTimestamp } from '@quarry/core';
import { tokenF1 } from '@quarry/extract';
import { decodeHtml } from '@quarry/fetcher';
import { parseHTML } from 'linkedom';
import { marked } from 'marked';
import { declaredMetadata } from './declared-metadata.mjs';

/** The half a page belongs to: 'A' (tuning) or 'B' (held out), fixed by the SHA-1 of its name. */
export function halfOf(name) {
  return createHash('sha1').update(name).digest()[0] % 2 === 0 ? 'A' : 'B';
}

const squashLower = (s) => (s ?? '').toLowerCase().replace(/\s+/g, ' ').trim();

/** evaluate.py's tokenize(): Python's `\w+` on lower-cased text. */
const words = (t) => (t ?? '').toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];

/** How many items of `a` are in `b`, each item of `b` matched once (the multisets' intersection). */
function multisetOverlap(a, b) {
  const left = new Map();
  for (const item of b) left.set(item, (left.get(item) ?? 0) + 1);
  let overlap = 0;
  for (const item of a) {
    const n = left.get(item) ?? 0;
    if (n > 0) {
      overlap++;
      left.set(item, n - 1);
    }
  }
  return overlap;
}

/**
 * WCXB's own metric (evaluate.py), as { p, r, f1 }: words are Python's `\w+` on lower-cased text, F1 over the
 * multiset; an empty reference scores 1 only against an empty prediction.
 */
export function wcxbWordScores(predicted, reference) {
  const pred = words(predicted);
  const ref = words(reference);
  if (ref.length === 0) return pred.length === 0 ? { p: 1, r: 1, f1: 1 } : { p: 0, r: 0, f1: 0 };
  if (pred.length === 0) return { p: 0, r: 0, f1: 0 };
  const overlap = multisetOverlap(pred, ref);
  if (overlap === 0) return { p: 0, r: 0, f1: 0 };
  const p = overlap / pred.length;
  const r = overlap / ref.length;
  return { p, r, f1: (2 * p * r) / (p + r) };
}

/** `Written by A and B` ≈ `A, B`; a credential tail (`A, MS, RD`) is accepted after the name. */
function sameAuthor(got, want) {
  const norm = (s) =>
    squashLower(s)
      .replace(/^(?:written )?by:?\s+/, '')
      .replace(/\s+(?:and|&)\s+/g, ', ');
  const g = norm(got);
  const w = norm(want);
  return g.length >= 2 && (g === w || w.startsWith(`${g},`) || g.startsWith(`${w},`));
}

/** The same calendar day in some zone between UTC-12 and UTC+14 (ground truth has no zone). */
function sameDay(gotIso, wantDay) {
  const want = Date.parse(`${wantDay.slice(0, 10)}T00:00:00Z`);
  const got = gotIso ? Date.parse(gotIso) : Number.NaN;
  return Number.isFinite(got) && Number.isFinite(want) && got >= want - 14 * 3_600_000 && got < want + 36 * 3_600_000;
}

/**
 * Equal, or the expected title keeps a ` | Site` tail that is stripped on purpose (Readability
 * pages; Chinese titles write it `_频道_网站`).
 */
function sameTitleOrPrefix(got, want) {
  const g = squashLower(got);
  const w = squashLower(want);
  return g === w || (g.length > 0 && w.startsWith(g) && /^\s*[|\-–—:·»/_]/.test(w.slice(g.length)));
}

const READABILITY_URL = 'http://fakehost/test/page.html';

/** mozilla/readability test pages: token F1 against expected.html, metadata against its JSON. */
function readabilitySet(root) {
  const dir = join(root, 'readability-pages');
  if (!existsSync(dir)) return null;
  const pages = readdirSync(dir).map((name) => {
    const expectedHtml = readFileSync(join(dir, name, 'expected.html'), 'utf8');
    const meta = JSON.parse(readFileSync(join(dir, name, 'expected-metadata.json'), 'utf8'));
    return {
      name,
      url: READABILITY_URL,
      html: () => readFileSync(join(dir, name, 'source.html'), 'utf8'),
      expectedText: parseHTML(`<html><body>${expectedHtml}</body></html>`).document.body.textContent ?? '',
      meta,
    };
  });
  return {
    id: 'readability',
    pages,
    metric: 'token F1 vs expected.html',
    score(page, got) {
      const published = parseTimestamp(page.meta.publishedTime);
      return {
        f1: tokenF1(got.body_text, page.expectedText),
        title: page.meta.title ? sameTitleOrPrefix(got.title, page.meta.title) : undefined,
        author: page.meta.byline
          ? squashLower(got.author).length >= 3 &&
            squashLower(page.meta.byline)
              .replace(/^(?:written )?by:?\s+/, '')
              .startsWith(squashLower(got.author))
          : undefined,
        date: published ? got.published_at === published : undefined,
        lang: page.meta.lang ? got.lang === normalizeLang(page.meta.lang) : undefined,
        site: page.meta.siteName ? got.site_name === page.meta.siteName : undefined,
      };
    },
  };
}

/** `2005-03-21T03:21:00Z` → the numbers of its China Standard Time wall clock. */
function cstParts(iso) {
  const t = new Date(Date.parse(iso) + 8 * 3_600_000);
  return [
    t.getUTCFullYear(),
    t.getUTCMonth() + 1,
    t.getUTCDate(),
    t.getUTCHours(),
    t.getUTCMinutes(),
    t.getUTCSeconds(),
  ];
}

/** Chinese news pages: bytes decoded by the fetcher's own sniffer; char-level token F1 (no segmenter). */
function chineseSet(root) {
  const dir = join(root, 'chinese-pages');
  if (!existsSync(dir)) return null;
  const read = (sub, stem) => readFileSync(join(dir, sub, `${stem}.txt`), 'utf8').trim();
  const pages = readdirSync(join(dir, 'original')).map((file) => {
    const stem = file.replace(/\.html$/, '');
    const html = decodeHtml(readFileSync(join(dir, 'original', file))).text;
    return {
      name: stem,
      url: /<text id="([^"]+)"/.exec(html)?.[1] ?? 'http://example.cn/page.html',
      html: () => html,
      cleaned: read('cleaned', stem),
      author: read('author', stem),
      date: read('date', stem),
    };
  });
  const names = (s) =>
    (s ?? '')
      .split(/[\s、,，]+/)
      .filter(Boolean)
      .sort()
      .join(' ');
  return {
    id: 'chinese',
    pages,
    metric: 'char/word token F1 vs cleaned/',
    score(page, got) {
      const knownAuthor = page.author !== '' && page.author !== 'UNKNOWN';
      const dateParts = /\d{4}/.test(page.date) ? (page.date.match(/\d+/g) ?? []).map(Number) : null;
      return {
        f1: tokenF1(got.body_text, page.cleaned),
        author: knownAuthor ? names(got.author) === names(page.author) : undefined,
        date: dateParts
          ? got.published_at !== null && dateParts.every((n, i) => cstParts(got.published_at)[i] === n)
          : undefined,
        // Pages whose ground truth has none: right when none is given.
        noAuthor: knownAuthor ? undefined : got.author === null,
        noDate: dateParts ? undefined : got.published_at === null,
        lang: got.lang === 'zh',
      };
    },
  };
}

/** A markdown picture, then a link, with their targets: `![alt](src)`, `[text](target "title")`. */
const PICTURE = /!\[([^\]]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g;
const LINK = /\[([^\]]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g;

/**
 * Lower-cased `\w+` words of a markdown element's text, space-joined: the same text however marked
 * up. A link counts as its text and a picture as its alt text: the words of their targets are not
 * the element's (`### [Name](/p/1)` is the heading `Name`).
 */
const partText = (text) => words(text.replace(PICTURE, '$1').replace(LINK, '$1')).join(' ');

/**
 * The texts of a markdown's fenced code blocks, each closed by a fence as long as its opening one. A
 * fence may be indented (a code block inside a list item).
 */
const codeBlocks = (md) => [...md.matchAll(/^[ \t]*(`{3,})[^\n]*\n([\s\S]*?)^[ \t]*\1[ \t]*$/gm)].map((m) => m[2]);

/** The structure kinds scored in a page's markdown, each as the list of its elements' texts. */
const MARKDOWN_PARTS = {
  // Also a heading in a list item, at the item's content column.
  headings: (md) => [...md.matchAll(/^[ \t]*#{1,6}[ \t]+(.+?)[ \t#]*$/gm)].map((m) => partText(m[1])),
  'code blocks': (md) => codeBlocks(md).map(partText),
  // Each line of a block: a block run into one line, or one line cut into several, matches none.
  'code lines': (md) => codeBlocks(md).flatMap((block) => block.split('\n').map(partText)),
  'list items': (md) => [...md.matchAll(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+(.+)$/gm)].map((m) => partText(m[1])),
  'table cells': (md) =>
    md
      .split('\n')
      .filter((line) => /^\s*\|.*\|\s*$/.test(line) && !/^\s*\|[\s:|-]+\|\s*$/.test(line))
      .flatMap((line) => line.split('|').slice(1, -1).map(partText)),
};

/**
 * How much of a reference markdown's structure the extracted markdown has: for each kind in
 * {@link MARKDOWN_PARTS}, the elements found in both (their words equal, each matched once), in
 * ours and in the reference: `{ headings: { both, ours, reference }, ... }`.
 */
export function markdownStructure(ours, reference) {
  const scores = {};
  for (const [kind, parts] of Object.entries(MARKDOWN_PARTS)) {
    const mine = parts(ours).filter(Boolean);
    const theirs = parts(reference).filter(Boolean);
    const both = multisetOverlap(mine, theirs);
    scores[kind] = { both, ours: mine.length, reference: theirs.length };
  }
  return scores;
}

/** A line with its code spans blanked out, each character a space (positions kept). */
const outsideCodeSpans = (line) => line.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length));
/** A line with its code spans and its links' and pictures' addresses blanked out (`](…)`, where `__` is part of a URL). */
const outsideCodeAndAddresses = (line) =>
  outsideCodeSpans(line).replace(/\]\([^()\s]*(?:\([^()\s]*\)[^()\s]*)*\)/g, (address) => ' '.repeat(address.length));

/**
 * Defects of a page's markdown that need no reference, counted outside code blocks: each a way a
 * converter garbles what the page shows. `link then a letter` also counts the pages' own `<a>word</a>s`.
 */
const MARKDOWN_DEFECTS = {
  'space inside a link': (line) => (line.match(/\[ [^\]]*\]\(|\[[^\]]* \]\(/g) ?? []).length,
  'link then a letter': (line) => (line.match(/\]\([^()\s]*\)[A-Za-z]/g) ?? []).length,
  'escape opening a link': (line) => (line.match(/\[\\[-+#>=]/g) ?? []).length,
  'escape opening a heading': (line) => (/^#{1,6} +(?:\d+\\[.)]|\\[-+#>=])/.test(line) ? 1 : 0),
  'empty heading': (line) => (/^#{1,6}\s*$/.test(line) ? 1 : 0),
  // `## **What are the trends?**`: marks a heading's own setting makes void.
  'heading in emphasis': (line) => (/^#{1,6} +(\*\*|__|\*|_)(?!\s).*(?<!\s)\1$/.test(line) ? 1 : 0),
  // A line whose content is only a marker (a badge's `1.`, a lone `+`): an empty list item.
  'empty list item': (line) => (/^(?:\s*(?:[-+*]|\d+[.)]|>)\s+)*\s*(?:[-+*]|\d{1,9}[.)])\s*$/.test(line) ? 1 : 0),
  'empty link': (line) => (line.match(/(?<!!)\[\]\(/g) ?? []).length,
  // Marks of bold in bold or italics in italics: `****hide caption**`, `__it_`.
  'doubled emphasis': (line) =>
    (outsideCodeAndAddresses(line).match(/\*{4,}|(?<![\w_.])__(?=[^_\s])[^_\n]*[^_\s]_(?!_)/g) ?? []).length,
  // Outside code spans; not where a line's content starts (after list, quote and heading markers).
  'escape inside a line': (line) =>
    [...outsideCodeSpans(line).matchAll(/(?<!\\)(?:\d+\\[.)]|\\[-+=>#])/g)].filter(
      (m) => !/^(?:\s*(?:[-+*]|\d+[.)]|>|#{1,6})\s+)*\s*$/.test(line.slice(0, m.index)),
    ).length,
  'escaped underscore in a word': (line) => (line.match(/(?<=[\p{L}\p{N}])\\_(?=[\p{L}\p{N}])/gu) ?? []).length,
  'line opening with a space': (line) => (/^ \S/.test(line) ? 1 : 0),
  // A table's delimiter row with a cell of no dash (`| --- |  |`): GitHub's syntax reads no table there.
  'table column without a dash': (line) => {
    const cells = /^[ >]*\|((?:[ :-]*\|)+)\s*$/.exec(line)?.[1].split('|').slice(0, -1);
    return cells?.some((cell) => cell.includes('-')) && cells.some((cell) => !cell.includes('-')) ? 1 : 0;
  },
  // Not a table row's padding, nor a list's indent inside a quote (`>    - item`).
  'two spaces between words': (line) =>
    /^\s*\|/.test(line)
      ? 0
      : [...line.matchAll(/\S {2,}(?=\S)/g)].filter((m) => !/^[\s>]*$/.test(line.slice(0, m.index + 1))).length,
};

/** Markup that shows as text when markdown is read wrongly: bold's stars, a link's or a picture's brackets, backticks. */
const SHOWN_MARKS = ['**', '](', '![', '`'];

/**
 * How many of {@link SHOWN_MARKS} the markdown shows as text when read back by a GFM parser
 * (marked) more than `text` (the page's body_text) holds: marks the converter wrote where markdown
 * does not read them (bold ending in punctuation before a word, a link inside code, a title's
 * unescaped quote), not the page's own.
 */
function marksShown(markdown, text) {
  const shown = marked
    .parse(markdown, { gfm: true, async: false })
    .replace(/<[^>]*>/g, ' ')
    .replace(
      /&(?:amp|lt|gt|quot|#39);/g,
      (e) => ({ '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" })[e],
    );
  const count = (s, mark) => s.split(mark).length - 1;
  return SHOWN_MARKS.reduce((n, mark) => n + Math.max(0, count(shown, mark) - count(text, mark)), 0);
}

/**
 * How many of each of {@link MARKDOWN_DEFECTS} `markdown` has, whether a code fence is left open,
 * and, given the page's `text`, the marks it shows when read back (see marksShown).
 */
export function markdownDefects(markdown, text) {
  const counts = Object.fromEntries(
    [...Object.keys(MARKDOWN_DEFECTS), 'sub-list short of its item', 'unclosed code block'].map((k) => [k, 0]),
  );
  if (text !== undefined) counts['marks shown when read back'] = marksShown(markdown, text);
  let fence = null;
  // The list item before: where its marker stands and where its content starts.
  let item = null;
  for (const line of markdown.split('\n')) {
    const opener = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && opener) fence = opener;
    else if (fence !== null && opener && opener[0] === fence[0] && opener.length >= fence.length) fence = null;
    else if (fence === null) {
      for (const [kind, count] of Object.entries(MARKDOWN_DEFECTS)) counts[kind] += count(line);
      // An item indented past the item before it but short of that item's content: meant as nested,
      // read by CommonMark as the outer list's (`1. Step` then `  - detail`).
      const marker = /^( *)([-+*]|\d{1,9}[.)])( +)\S/.exec(line);
      if (marker) {
        const at = marker[1].length;
        if (item !== null && at > item.at && at < item.content) counts['sub-list short of its item']++;
        item = { at, content: at + marker[2].length + marker[3].length };
      } else if (line.trim() === '' || !/^\s/.test(line)) item = null;
    }
  }
  if (fence !== null) counts['unclosed code block'] = 1;
  return counts;
}

/** How many of `snippets` `text` holds, as evaluate.py's snippet_check finds them; null without any. */
function snippetsFound(text, snippets) {
  if (!Array.isArray(snippets) || snippets.length === 0) return null;
  const lower = (text ?? '').toLowerCase();
  const found = snippets.filter((s) => lower.includes(String(s).toLowerCase())).length;
  return { found, total: snippets.length };
}

/** WCXB dev pages (7 page types): its own word F1, exact title, author and day of publication. */
function wcxbSet(root) {
  const dir = join(root, 'wcxb-dev', 'dev');
  if (!existsSync(dir)) return null;
  const pages = readdirSync(join(dir, 'ground-truth'))
    .filter((f) => f.endsWith('.json'))
    .map((file) => {
      const id = file.replace(/\.json$/, '');
      const data = JSON.parse(readFileSync(join(dir, 'ground-truth', file), 'utf8'));
      const type = data._internal?.page_type?.primary ?? 'article';
      return {
        name: id,
        url: data.url,
        // Read when extracted: the whole set would hold about 1 GB of strings.
        html: () => gunzipSync(readFileSync(join(dir, 'html', `${id}.html.gz`))).toString('utf8'),
        type: type === 'category' ? 'collection' : type,
        truth: data.ground_truth ?? {},
      };
    });
  return {
    id: 'wcxb',
    pages,
    metric: 'word F1 (evaluate.py)',
    /** `html`, when given, is read for what the page declares (declared-metadata.mjs), outside the timing. */
    score(page, got, html) {
      const t = page.truth;
      const declared = html !== undefined && (t.author || t.publish_date) ? declaredMetadata(html) : undefined;
      const { p, r, f1 } = wcxbWordScores(got.body_text, t.main_content ?? '');
      return {
        f1,
        precision: p,
        recall: r,
        // evaluate.py scores no title; its only normalisation, tokenize(), is applied to both.
        title: t.title ? words(got.title).join(' ') === words(t.title).join(' ') : undefined,
        author: t.author ? sameAuthor(got.author, t.author) : undefined,
        date: t.publish_date ? sameDay(got.published_at, t.publish_date) : undefined,
        // Pages whose ground truth has none: right when none is given.
        noAuthor: t.author ? undefined : got.author === null,
        noDate: t.publish_date ? undefined : got.published_at === null,
        // Whether the page's structured data states the reference's author and day.
        authorDeclared: t.author && declared ? declared.authors.some((name) => sameAuthor(name, t.author)) : undefined,
        dateDeclared:
          t.publish_date && declared ? declared.dates.some((date) => sameDay(date, t.publish_date)) : undefined,
        markdown: t.main_content_markdown ? markdownStructure(got.body_markdown, t.main_content_markdown) : undefined,
        defects: markdownDefects(got.body_markdown, got.body_text),
        // evaluate.py's snippet_check: the reference's `with` lines (main text) and `without` lines
        // (boilerplate) found in the text, case-insensitive substrings.
        withSnippets: snippetsFound(got.body_text, t.with),
        withoutSnippets: snippetsFound(got.body_text, t.without),
      };
    },
  };
}

/**
 * The data sets present under `root` (../shared/testdata), in report order. Each page has a
 * `name`, `url`, `html()` (read on demand) and set-specific ground truth; `score(page, extracted)`
 * gives `f1` and, where the page has ground truth for them, booleans `title`, `author`, `date`...
 */
export function loadExtractSets(root, only) {
  const all = [
    ['readability', readabilitySet],
    ['chinese', chineseSet],
    ['wcxb', wcxbSet],
  ];
  return all
    .filter(([id]) => !only || only.includes(id))
    .map(([, load]) => load(root))
    .filter((set) => set !== null);
}

/** The Readability test pages as `{ url, html }`, read once: the pages the extraction speed is measured on ([] when absent). */
export function readabilitySources(root) {
  const pages = loadExtractSets(root, ['readability'])[0]?.pages ?? [];
  return pages.map((page) => ({ url: page.url, html: page.html() }));
}
