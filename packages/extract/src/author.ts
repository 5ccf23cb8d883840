import { parsePageDate } from './dates.js';
import { squash } from './text.js';

/** Author names longer than this are page text caught by a selector, not a byline. */
const MAX_AUTHOR_CHARS = 100;
const MAX_AUTHOR_WORDS = 12;

const BYLINE_PREFIX =
  /^(?:(?:written|posted|published|reported|words|text|story|photos?)\s+by|by|from|author(?:s|\(s\))?|作者|文|撰文|记者|编辑|责任编辑|执笔人?)\s*[:：/|]?\s+|^(?:author|作者|文|撰文|记者|编辑|责任编辑|执笔人?)\s*[:：/]\s*/i;
const URL_LIKE = /^(?:https?:\/\/|www\.)|\.(?:com|org|net|html?)(?:\/|$)/i;
const DATE_LIKE =
  /^\s*(?:\d{1,4}[-/.年]\d{1,2}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4})/i;

/**
 * Cleans a byline to a name: `By Jane Doe` → `Jane Doe`, `作者：张三` → `张三`; cuts trailing
 * `| date` or `- Staff` parts; returns null for anything that is not a plausible name (a URL, a
 * date, empty, longer than 100 characters or 12 words).
 */
export function cleanAuthor(raw: string | null | undefined): string | null {
  let text = squash(raw).slice(0, MAX_AUTHOR_CHARS * 5);
  for (let i = 0; i < 2; i++) text = text.replace(BYLINE_PREFIX, '').trim();
  text =
    text.split(
      /\s+(?:edited|photos?|illustrations?|additional reporting)\s+by\b|\s+[|•·]\s+|\s+[-–—]\s+(?=\S*\s*\d)|\s+(?:on|updated|published)\s+(?=\w+\.?\s+\d|\d)/i,
    )[0] ?? '';
  text = text.replace(/^[^\p{L}\p{N}]+|[\s,;:|/-]+$/gu, '');
  if (text === '' || text.length > MAX_AUTHOR_CHARS) return null;
  if (text.split(/\s+/).length > MAX_AUTHOR_WORDS) return null;
  if (URL_LIKE.test(text) || DATE_LIKE.test(text) || parsePageDate(text) !== null) return null;
  if (!/\p{L}/u.test(text) || /\d{3,}/.test(text)) return null;
  // `赵 培`: Chinese names are written without spaces; some pages space out two-character names.
  if (/^\p{Script=Han}(?: \p{Script=Han})+$/u.test(text)) return text.replace(/ /g, '');
  return text;
}

/** A Chinese personal name: 2 to 4 Han characters (or a `·` for transliterated names). */
const ZH_NAME = '[\\p{Script=Han}·]{2,4}(?![\\p{Script=Han}·])';
// Names on one line only: the next paragraph is article text, not more authors.
const ZH_NAMES = `${ZH_NAME}(?:[ \\t\\u3000\\u00a0、，,]+${ZH_NAME})*`;
// The label needs a separator after it: `记者经历了` is prose, `记者 王建宏` a byline.
const ZH_LABELLED = new RegExp(
  `(?:作者|撰稿|撰文|执笔人?|记者|责任编辑|编辑)(?:\\s*[:：/]\\s*|[ \\t\\u3000\\u00a0]+)(${ZH_NAMES})`,
  'u',
);
const ZH_CLOSING = new RegExp(`[（(]\\s*(?:记者|作者)?\\s*(${ZH_NAMES})\\s*[）)]\\s*$`, 'u');
/** Words that fill the name slot in a dateline but are not names. */
const NOT_A_NAME = /报道|报社|日报|晚报|通讯|电$|摄$|来源|本报|新华|综合|整理|编辑|记者|作者|简介|文章|发表|时间|日期/u;

/**
 * Finds the author of a Chinese page in its text: a labelled byline near the title
 * (`作者：张三`, `记者 王建宏 张文攀`, `编辑：苏亮`) or a closing parenthesis at the end of the
 * article (`（记者 胡晓蓉）`, `（姚峰 上海报道）`). Several names are joined with a space.
 */
export function findZhByline(nearTitle: string, articleEnd: string): string | null {
  const labelled = ZH_LABELLED.exec(nearTitle);
  const closing = ZH_CLOSING.exec(articleEnd.trim());
  for (const match of [labelled, closing]) {
    if (!match?.[1]) continue;
    const names = match[1].split(/[\s、，,]+/).filter((n) => n !== '' && !NOT_A_NAME.test(n));
    if (names.length > 0) return names.join(' ');
  }
  return null;
}
