import { MONTHS, parsePageDate } from './dates.js';
import { squash } from './text.js';

/** Author names longer than this are page text caught by a selector, not a byline. */
const MAX_AUTHOR_CHARS = 100;
const MAX_AUTHOR_WORDS = 12;

/**
 * `By`, `Author:` and their words in the languages bylines are most often written in: German
 * `Von`, French `Par`, Spanish and Portuguese `Por`, Italian `Di`, Dutch `Door`, Swedish and
 * Norwegian `Av`, and `Autor`, `Auteur`, `Autore`, `Автор`.
 */
const BYLINE_PREFIX =
  /^(?:(?:written|posted|published|submitted|reported|authored|words|text|story|article|photos?|recipe|review|interview|guide|analysis|column|commentary|essay|opinion|video|podcast|tutorial)\s+by|(?:more\s+)?(?:articles|posts|stories)\s+by|post(?:ed)?\s+by|more\s+from|about(?:\s+the\s+authors?\s*[:：]?)?|by|from|von|par|por|di|door|av|author(?:s|\(s\))?|作者|文|撰文|记者|编辑|责任编辑|执笔人?)(?:\s*[:：/|]?\s+|\s*[:：]\s*(?=\p{L}))|^(?:author|autor|auteur|autore|автор|作者|文|撰文|记者|编辑|责任编辑|执笔人?)\s*[:：/]\s*/iu;
const URL_LIKE = /^(?:https?:\/\/|www\.)|\.(?:com|org|net|html?)(?:\/|$)/i;
const DATE_LIKE =
  /^\s*(?:\d{1,4}[-/.年]\d{1,2}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4})/i;

/** A date printed before the name (`Dec 17, 2025 · Julian K. Arni`). */
const LEADING_DATE = new RegExp(
  `^(?:(?:${MONTHS})\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?|\\d{1,2}\\s+(?:${MONTHS})\\.?,?\\s+\\d{4}|\\d{4}-\\d{2}-\\d{2})\\s*[·•|,–—-]?\\s*(?!at\\b)(?=\\p{L})`,
  'iu',
);
/** `BySummer Swann`, `Written ByStephen`: the label glued to the name by the page's markup. */
const GLUED_BY = /^(?:(?:[Ww]ritten |[Pp]osted )?[Bb]y|Author)(?=\p{Lu})/u;
/** A forum avatar's initial before the name (`B boobaloobie`), or `OP` (the original poster). */
const AVATAR_INITIAL = /^(?:(\p{L})\s+(?=\1)|OP\s+)/iu;
/**
 * Where a byline's name ends: editor and photo credits, ` | date`, `on behalf of`, `Last updated`,
 * and a forum user card's reputation, role and counters (`drat 1,655 gold badges`, `jane Full
 * Member Joined Jun 29, 2016`).
 */
const BYLINE_TAIL = new RegExp(
  [
    '\\s+(?:edited|photos?|illustrations?|additional reporting)\\s+by\\b',
    '[.,;]?\\s+(?:(?:medically|expertly|expert)\\s+)?(?:reviewed|fact[-\\s]?checked|verified)\\s+by\\b',
    // A sponsor's label after the name (`Help Net Security Sponsored`).
    '\\s+(?:sponsored|promoted|paid content|partner content)$',
    '\\s*[|•·»]\\s+',
    '\\s+[-–—]\\s+(?=\\S*\\s*\\d)',
    '\\s+(?:on|updated|published)\\s+(?=\\w+\\.?\\s+\\d|\\d)',
    '\\s+on\\s+(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?\\b',
    '\\s+(?:on behalf of|last (?:updated|modified))\\b',
    '\\s+[\\d,.]+k?\\s+(?:gold|silver|bronze)\\b',
    `\\s*[-–—]?\\s*(?:${MONTHS})\\.?\\s+\\d{1,2}\\b`,
    '\\s+(?:(?:new|full|senior|junior|active|well-known|distinguished|prominent|outstanding|established|registered|top)\\s+member|moderator|administrator|veteran|legend|supporter)\\b',
    '\\s+(?:joined|messages|original poster|location)\\b',
  ].join('|'),
  'i',
);
/**
 * A label glued to the name before it by the page's markup: `Reyan PerumalPublished`, `Cazzy
 * MagennisLast Updated`, `Jane DoeReviewed by` (case matters: `Unedited` is a word).
 */
const GLUED_TAIL = /(?<=\p{Ll})(?:Published|Updated|Last Updated|Posted|Reviewed|Edited|Sponsored)(?!\p{Ll})/u;
/**
 * A date after the name with the day first, in any language: `, 19. März 2025`, `, le 3 mars
 * 2024`, `, 19 de marzo de 2025`. Cut only after a name of two words or more: before it, the
 * line is a date of its own (`Sat, 20 Dec, 2025`).
 */
const DAY_FIRST_TAIL =
  /\s*,?\s+(?:(?:le|am|el|il|den|on)\s+)?\d{1,2}(?:\.|er)?\s+(?:de\s+)?\p{L}+\.?,?\s+(?:de\s+)?\d{4}(?!\d)/iu;
/**
 * What byline selectors catch that is not a name, and a blog's default account (`admin`: WordPress
 * publishes as it until a writer's name is set).
 */
const NOT_A_BYLINE =
  /^(?:full bio|about(?: the)? author|topic author|authors?|name|updated|published|posted|submitted|view (?:full )?profile|see all|read more|admin|administrator)$|\*|\ssays:?$/i;
/**
 * A byline element's label left without its name (`By`, `Promoted by`, `The Author`, a dangling
 * `on` before a date) or its reading time (`10 mins read`, `mins read` when the number is an element
 * of its own): page furniture that a byline selector catches, never a name.
 */
const LABEL_ONLY =
  /^(?:(?:(?:written|posted|published|promoted|sponsored|presented|reported|authored|words|story|photos?)\s+)?by|on|the\s+authors?|(?:\d+\s*)?(?:mins?|minutes?)\.?\s+(?:read|reading)|read(?:ing)?\s+time\b.*)$/i;
/**
 * A byline naming who else worked on the article (`Updated by Jon Linkov`, `Medically reviewed by`,
 * `Fact-checked by`): an editor or reviewer, not its author.
 */
const OTHER_ROLE =
  /^(?:(?:last\s+)?updated|(?:medically\s+|expert\s+)?reviewed|edited|fact[-\s]?checked|verified|approved)\s+by\b/i;
/**
 * A site's credits (`content: MarketingSherpa, design: Scott McDaniel, code: Steve Beger`): names
 * each after a role and a colon, some meta author tags hold; not who wrote the page.
 */
const CREDITS = /(?:^|,\s*)[\p{L} ]{2,20}:\s*\S[^,]*,\s*[\p{L} ]{2,20}:\s*\S/u;
/**
 * A link or button that author selectors catch (`Follow the author`, `Visit the Apple Store`,
 * `Sign In`, `Read Jane's articles`, `Comment`): it starts with what it asks the reader to do.
 */
const CALL_TO_ACTION =
  /^(?:visit|follow|sign\s*(?:in|up|out)|log\s*(?:in|out)|register|subscribe|share|read|view|see|contact|comments?|reply|home|menu)(?:\s|$)/i;
/**
 * A phrase, not a name: a lower-case pronoun, question word or auxiliary verb among its words (`How
 * we reviewed this article`, `Is this helpful`). Names and their roles (`Paul Frew, Home and Digital
 * Security Expert`, `Editor at Large`) hold none.
 */
const SENTENCE_WORD =
  /(?:^|\s)(?:we|our|us|you|your|my|me|it|its|this|these|those|how|what|why|is|are|was|were|has|have|had|will|can|does|did)(?=\s|$)/u;
/**
 * A template's field left unfilled (`page.head.extra.author`, `{{ author }}`, `%author%`, a script's
 * `undefined`): the page's markup, never a name. A user name may hold dots (`sara.r.peter`); a
 * template's path ends in the field's name.
 */
const UNFILLED =
  /^(?:undefined|null|none|unknown|n\/a|(?:[a-z_$][\w$]*\.)+(?:author|authors|byline|writer|creator|name))$|\{\{|\}\}|\$\{|^%\w+%$/i;
/** A link to the site's own page about itself (`About us`, `About this site`), which `about` bylines catch. */
const ABOUT_SITE = /^about\s+(?:us|me|this|our|the\s+(?:site|company|blog|team))\b/i;
/** Prices and plans (`billed annually, or $50/mo`): never a name. */
const MONEY = /[$€£¥]\s*\d/u;

/** Credits of the software that made the page (forum and CMS templates fill meta author with them). */
const SOFTWARE_CREDIT = /\b(?:discuz|comsenz|phpwind|dedecms|wordpress|joomla|drupal|powered by)\b/i;
/** Page furniture that `.author` selectors catch on Chinese sites: "articles by this author", "reads". */
const PAGE_CHROME = /文章|阅读|评论|管理|资料|模板|更新|登录|注册|首页|订阅|关注|收藏/u;

/** Names a list of authors may hold (`meta name="author"` of a report's eight writers). */
const MAX_LISTED_NAMES = 12;
/** Words of each name in such a list. */
const MAX_LISTED_NAME_WORDS = 4;

/**
 * Whether a byline longer than one name's bounds is a list of names: three or more comma-separated
 * parts, each capitalised and of at most {@link MAX_LISTED_NAME_WORDS} words (`Nicholas Collins,
 * Scott Munro, Matt De La O, Vineet Asthana, …`).
 */
function isNameList(text: string): boolean {
  const parts = text.split(/\s*,\s*/);
  return (
    parts.length >= 3 &&
    parts.length <= MAX_LISTED_NAMES &&
    parts.every((part) => /^\p{Lu}/u.test(part) && part.split(/\s+/).length <= MAX_LISTED_NAME_WORDS)
  );
}

/**
 * Cleans a byline to a name: `By Jane Doe` → `Jane Doe`, `作者：张三` → `张三`; cuts trailing
 * `| date` or `- Staff` parts; returns null for anything that is not a plausible name (a URL, a
 * date, empty, longer than 100 characters or 12 words unless a list of names).
 */
export function cleanAuthor(raw: string | null | undefined): string | null {
  let text = squash(raw)
    .slice(0, MAX_AUTHOR_CHARS * 5)
    .replace(LEADING_DATE, '');
  if (OTHER_ROLE.test(text) || CREDITS.test(text) || ABOUT_SITE.test(text) || UNFILLED.test(text)) return null;
  for (let i = 0; i < 2; i++) text = text.replace(BYLINE_PREFIX, '').replace(GLUED_BY, '').trim();
  text = text.replace(AVATAR_INITIAL, '');
  text = text.split(GLUED_TAIL)[0] ?? '';
  text = text.split(BYLINE_TAIL)[0] ?? '';
  const dated = DAY_FIRST_TAIL.exec(text);
  if (dated && /\p{L}\s+\p{L}/u.test(text.slice(0, dated.index))) text = text.slice(0, dated.index);
  text = text.replace(/^[^\p{L}\p{N}]+|[\s,;:|/-]+$/gu, '');
  // A closing quote left of an attribute or a quoted name cut in two (`David Kim"`).
  if (!/["“]/u.test(text.slice(0, -1))) text = text.replace(/(?<=[\p{L}.])["”]+$/u, '');
  // `jldugger – jldugger`, `raoul (raoul)`: a user card repeats the name.
  text = text.replace(/^(.{2,40}?)\s*(?:[-–—]\s*\1|\(\1\))$/u, '$1');
  const long = text.length > MAX_AUTHOR_CHARS || text.split(/\s+/).length > MAX_AUTHOR_WORDS;
  if (text === '' || (long && !isNameList(text)) || NOT_A_BYLINE.test(text) || LABEL_ONLY.test(text)) return null;
  if (CALL_TO_ACTION.test(text) || MONEY.test(text) || SENTENCE_WORD.test(text) || UNFILLED.test(text)) return null;
  if (URL_LIKE.test(text) || DATE_LIKE.test(text) || parsePageDate(text) !== null) return null;
  if (!/\p{L}/u.test(text) || (/\d{3,}/.test(text) && !USER_HANDLE.test(text))) return null;
  if (SOFTWARE_CREDIT.test(text) || PAGE_CHROME.test(text)) return null;
  // `赵 培`: Chinese names are written without spaces; some pages space out two-character names.
  if (/^\p{Script=Han}(?: \p{Script=Han})+$/u.test(text)) return text.replace(/ /g, '');
  return text;
}

/**
 * A forum or Q&A user name that ends in a number (`user447274`, `archuser38013`): lower-case letters
 * first, the digits at the end. Other names with three digits in a row are a date, a price or a code.
 */
const USER_HANDLE = /^\p{Ll}[\p{Ll}_.-]*\d+$/u;

/** A byline's line that only labels the name on the next one (`Written By`, `Author:`). */
const LABEL_LINE =
  /^(?:(?:written|posted|published|reported|authored)\s+by|by|authors?|author\(s\)|作者|撰文|记者|编辑|责任编辑)\s*[:：]?$/i;
/** A byline's line that only dates it (`Updated January 08, 2026`, `Mar 24, 2025`). */
const DATE_LINE = /^(?:(?:last\s+)?(?:updated|published|posted|modified)(?:\s+on)?:?\s+)?(?=\S)/i;

/**
 * The name in a byline element's text, one line per block (see readDomFacts): its first line that is
 * neither a label (`Written By`) nor a date, cleaned (see {@link cleanAuthor}). The lines after the
 * name are a role, a date, a user's rank and counters, never the name.
 */
export function cleanByline(text: string): string | null {
  for (const raw of text.split('\n')) {
    const line = squash(raw);
    if (line === '' || LABEL_LINE.test(line)) continue;
    const name = cleanAuthor(line);
    if (name !== null || !isDateLine(line)) return name;
  }
  return null;
}

function isDateLine(line: string): boolean {
  const rest = line.replace(DATE_LINE, '');
  return DATE_LIKE.test(rest) || parsePageDate(rest) !== null;
}

/** A Chinese personal name: 2 to 4 Han characters (or a `·` for transliterated names). */
const ZH_NAME = '[\\p{Script=Han}·]{2,4}(?![\\p{Script=Han}·])';
// Names on one line only: the next paragraph is article text, not more authors.
const ZH_NAMES = `${ZH_NAME}(?:[ \\t\\u3000\\u00a0、，,]+${ZH_NAME})*`;
// The label needs a separator after it: `记者经历了` is prose, `记者 王建宏` a byline.
// `文/张三` and `文｜张三`: the one-character label needs its slash or bar.
/** A label, then a separator (`：`, `/`, `|`) or a space, then the names. */
const zhLabelled = (labels: string, slashLabel: string): RegExp =>
  new RegExp(`(?:(?:${labels})(?:\\s*[:：/／|｜]\\s*|[ \\t\\u3000\\u00a0]+)${slashLabel})(${ZH_NAMES})`, 'u');
/**
 * The labels of the people who wrote an article (simplified and traditional): reporters, interns and
 * correspondents report together.
 */
const ZH_WRITER_LABELS = '作者|撰稿|撰文|执笔人?|執筆人?|记者|記者|实习生|實習生|通讯员|通訊員';
/**
 * Who wrote the article: `作者：张三`, `记者 王建宏`, `执笔人：…`, `本报实习生 刘国栋`, `文/张三` (the
 * one-character label needs its slash).
 */
const ZH_LABELLED = zhLabelled(ZH_WRITER_LABELS, '|(?<![\\p{Script=Han}])文\\s*[/／|｜]\\s*');
/**
 * A whole line that is only a byline (`本报记者 王燕平 方云凤`, `通讯员：李四`): a newspaper prints one
 * line per role (reporters, interns, correspondents), all of them the article's authors.
 */
const ZH_BYLINE_LINE = new RegExp(
  `^[ \\t\\u3000\\u00a0□■]*[\\p{Script=Han}]{0,6}?(?:${ZH_WRITER_LABELS})(?:\\s*[:：]\\s*|[ \\t\\u3000\\u00a0]+)(${ZH_NAMES})[ \\t\\u3000\\u00a0]*$`,
  'u',
);
/**
 * A labelled user name that is not written in Han characters (`作者： 放飞&心情`, `作者：jane_doe`):
 * forum and blog pages print the poster's handle alone after the label, up to the line's end.
 */
const ZH_LABELLED_HANDLE =
  /(?:作者|发帖人|發帖人|楼主|樓主|博主)[ \t\u3000\u00a0]*[:：][ \t\u3000\u00a0]*([\p{L}\p{N}_&.·@-]{2,24})[ \t\u3000\u00a0]*(?=\n|$)/u;
/**
 * A blog or forum post's own line: the poster's name, then `发表于` and the date
 * (`ggjjzhzz 发表于 2005-9-15 11:46:00`).
 */
const ZH_POSTED_AT =
  /(?:^|\n)[ \t\u3000\u00a0]*(?:作者[:：]?\s*)?(?!本文|此文|该文|該文|全文|原文|本帖|此帖|楼主|樓主|网友|網友|游客|遊客|匿名|回复|回覆|引用)([\p{L}\p{N}_&.·@-]{2,24})[ \t\u3000\u00a0]+(?:发表于|發表於|发布于|發布於|發佈於|发表时间|發表時間|发布时间|發布時間|發佈時間)[:：]?[ \t\u3000\u00a0]*(?:19|20)\d{2}\s*[-/.年]/u;
/**
 * A closing `来源：尹娟` line at the article's end that names a person (see {@link looksLikeZhPersonalName}),
 * as small sites credit their writers; `来源：新华网` names the publication and is not taken.
 */
const ZH_SOURCE_PERSON =
  /(?:^|\n)[ \t\u3000\u00a0]*(?:来源|來源)[ \t\u3000\u00a0]*[:：][ \t\u3000\u00a0]*(\p{Script=Han}{2,3})[ \t\u3000\u00a0]*$/u;
/**
 * Common Chinese family names (together well over 85% of the population; the commonest also in
 * traditional characters), without those that are also common words (和, 时, 明, 成, 文, 华...): a
 * two or three character word that starts with one of them and does not end like an organisation
 * may be a person.
 */
const ZH_SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付傅方白邹孟熊秦邱江尹薛闫阎段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍喻祁蒲房滕屈饶解牟艾尤阳穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂佟应臧闵苟邬边卞姬师仇栾隋刁沙荣巫寇桑郎甄丛仲虞敖巩佘池查麻苑迟邝張劉陳楊黃趙吳孫馬鄭謝許韓馮鄧蕭葉蘇蔣盧陸錢賈鍾譚魯龔嚴賴顏湯溫羅賀鄒閻聶龍';
const ZH_ORG_END = /[网網社报報刊台站局部厅廳委办辦院所会會司行店馆館校团團组組室界处處]$/u;

/** True for a two or three character Han word that begins with a common family name and ends like no organisation. */
function looksLikeZhPersonalName(word: string): boolean {
  return /^\p{Script=Han}{2,3}$/u.test(word) && ZH_SURNAMES.includes(word[0] ?? '') && !ZH_ORG_END.test(word);
}
/** Who edited it (`编辑：苏亮`, `责任编辑：孙重远`): the author only when no writer is named. */
const ZH_EDITOR_LABELLED = zhLabelled('责任编辑|编辑|责编', '');
const ZH_CLOSING = new RegExp(`[（(]\\s*(?:记者|作者)?\\s*(${ZH_NAMES})\\s*[）)]\\s*$`, 'u');
/**
 * A paragraph of prose (40 characters or more) whose last sentence ends with the reporters' names in
 * brackets: `…温馨、廉洁的新春佳节。（常书香 马丹阳 ）`, followed by more lines (links, footer) the
 * article kept. The first such paragraph: link lists after the article end in `(新闻)` too.
 */
const ZH_PARAGRAPH_CLOSING = new RegExp(
  `(?:^|\\n)[^\\n]{40,}[。”」][ \\t\\u3000]*[（(][ \\t\\u3000]*(?:记者|作者)?[ \\t\\u3000]*(${ZH_NAMES})[ \\t\\u3000]*[）)][ \\t\\u3000]*(?=\\n|$)`,
  'u',
);
/**
 * A closing byline line: `本报记者 葛灵丹`, `新京报记者 彭冲 山东冠县报道`, `通讯员 李四`. The label may
 * carry a paper's name before it; a place and `报道` may follow the names.
 */
const ZH_CLOSING_LINE = new RegExp(
  `(?:^|\\n)[^\\n]{0,12}?(?:记者|通讯员|作者|撰稿|执笔人?)(?:\\s*[:：]\\s*|[ \\t\\u3000\\u00a0]+)(${ZH_NAMES})(?:[ \\t\\u3000\\u00a0]+[\\p{Script=Han}]{0,8}报道)?[ \\t\\u3000\\u00a0）)]*$`,
  'u',
);
/** A dateline's bracketed name: `2004年7月16日08:19 [ 黄宇 ] 来源：…`. */
const ZH_AFTER_TIME = new RegExp(`\\d{1,2}[:：]\\d{2}(?:[:：]\\d{2})?\\s*[\\[【]\\s*(${ZH_NAMES})\\s*[\\]】]`, 'u');
/**
 * A name alone on the line under the headline, as essay and blog pages print it: two or three Han
 * characters, followed by the article's first paragraph.
 */
const ZH_NAME_LINE = /^[ \t\u3000\u00a0]*(\p{Script=Han}{2,3})[ \t\u3000\u00a0]*\n+[^\n]{8}/u;
/** Words that fill the name slot in a dateline but are not names. */
const NOT_A_NAME =
  /通讯员|通訊員|实习生|實習生|摄影|攝影|新闻|新聞|报道|報道|報導|报社|報社|日报|日報|晚报|晚報|通讯|通訊|电$|電$|摄$|攝$|来源|來源|本报|本報|新华|综合|整理|编辑|編輯|记者|記者|作者|简介|文章|发表|时间|日期|导语|摘要|前言|正文|目录|概述|背景|评论|相关|分享|首页|返回|更多|推荐|热门|专题|图片|视频|引言|引子|序言|后记|附录|声明|公告|通知|提示|说明|注释|参考/u;

/**
 * The signature of an official notice or letter (落款): the issuing body on its own line, then the
 * date (`吉林省人民政府\n2022年1月27日`). The body is named by what it is: a government, bureau, office,
 * committee, company...
 */
const ZH_SIGNATURE =
  /(?:^|\n)[ \t\u3000]*(\p{Script=Han}{2,20}(?:政府|委员会|办公室|办公厅|局|厅|部|院|会|中心|公司|集团|协会|大学|学校))[ \t\u3000]*\n+[ \t\u3000]*(?:19|20)\d{2}年\d{1,2}月\d{1,2}日[ \t\u3000]*(?:\n|$)/u;

/** A blog or forum footer: `由海姑娘张贴 @ 2005-06-10`, `由 jane 发表于`. */
const POSTED_BY = /由\s*([\p{L}\p{N}_.&-]{2,16}?)\s*(?:张贴|发表|发布)/u;
/** Trailing lines after a closing byline: editor credits, source notes, share links. */
const TRAILER = /^[\s【[(（□]*(?:责编|责任编辑|编辑|来源|返回|分享|原标题|本文来源|点击|更多)/u;
/** Organisations where a person's name is wanted: 中国新闻网, 新华社, 人民日报, 央视频道. */
const ORGANISATION = /(?:网|社|报|台|中心|频道|门户|杂志)$/u;

function namesOf(match: RegExpExecArray | null): string | null {
  if (!match?.[1]) return null;
  const parts = match[1].split(/[\s、，,]+/).filter((n) => n !== '');
  if (parts.some((n) => PAGE_CHROME.test(n))) return null;
  const names = parts.filter((n) => !NOT_A_NAME.test(n));
  return names.length > 0 ? names.join(' ') : null;
}

/**
 * The first labelled byline in a text (see ZH_LABELLED), with the names of the byline lines printed
 * right before and after its line (`本报实习生 刘国栋 周炜` over `本报记者 王燕平 方云凤`); a poster's
 * handle after `作者：` is taken whole (see ZH_LABELLED_HANDLE).
 */
function labelledByline(text: string): string | null {
  const match = ZH_LABELLED.exec(text);
  const handle = ZH_LABELLED_HANDLE.exec(text);
  const name = handle?.[1];
  if (
    name &&
    /[^\p{Script=Han}·]/u.test(name) &&
    !/\d{3,}/.test(name) &&
    (match === null || handle.index <= match.index)
  ) {
    return namesOf(handle);
  }
  const first = namesOf(match);
  if (match === null || first === null) return first;
  const lines = text.split('\n');
  const at = text.slice(0, match.index).split('\n').length - 1;
  if (!ZH_BYLINE_LINE.test(lines[at] ?? '')) return first;
  const names = [first];
  const neighbours = (step: number) => {
    for (let i = at + step, seen = 0; i >= 0 && i < lines.length && seen < 2; i += step) {
      const line = lines[i] ?? '';
      if (line.trim() === '') continue;
      const more = namesOf(ZH_BYLINE_LINE.exec(line));
      if (more === null) return;
      if (step < 0) names.unshift(more);
      else names.push(more);
      seen++;
    }
  };
  neighbours(-1);
  neighbours(1);
  return names.join(' ');
}

/** A `来源：` line that names a person rather than a publication (see ZH_SOURCE_PERSON). */
function sourcePerson(end: string): string | null {
  const name = ZH_SOURCE_PERSON.exec(end)?.[1];
  return name !== undefined && looksLikeZhPersonalName(name) && !NOT_A_NAME.test(name) ? name : null;
}

/** The article's end without trailing editor credits and share links (at most three lines of them). */
function withoutTrailers(end: string): string {
  const lines = end.trim().split(/\n+/);
  for (let i = 0; i < 3 && lines.length > 1 && TRAILER.test(lines.at(-1) ?? ''); i++) lines.pop();
  return lines.join('\n').trim();
}

/** Where a Chinese page's byline may be: text around the headline and the article's two ends. */
export interface ZhBylinePlaces {
  /** Page text from the headline on (or the page's first part when the headline was not found). */
  readonly nearTitle: string;
  /** The first few hundred characters of the extracted article. */
  readonly articleStart: string;
  /** The last few hundred characters of the extracted article. */
  readonly articleEnd: string;
  /** The whole extracted article, where a paragraph may close with the names (see ZH_PARAGRAPH_CLOSING). */
  readonly articleText?: string;
}

/**
 * Finds the author of a Chinese page in its text: a labelled byline near the title
 * (`作者：张三`, `记者 王建宏 张文攀`, and the byline lines next to it, `编辑：苏亮`), a bracketed
 * name after the dateline's time (`08:19 [ 黄宇 ]`), a poster's `name 发表于 date` line, a closing
 * parenthesis or byline line at the end of the article (`（记者 胡晓蓉）`, `（姚峰 上海报道）`,
 * `本报记者 葛灵丹`, editor credits after it skipped), a closing `来源：` that names a person, a
 * name alone on the line under the headline, or a blog footer (`由海姑娘张贴`). Several names
 * are joined with a space.
 */
export function findZhByline({ nearTitle, articleStart, articleEnd, articleText }: ZhBylinePlaces): string | null {
  const end = withoutTrailers(articleEnd);
  const underHeadline = (text: string) => text.slice(text.indexOf('\n') + 1);
  return (
    labelledByline(nearTitle) ??
    namesOf(ZH_AFTER_TIME.exec(nearTitle)) ??
    namesOf(ZH_POSTED_AT.exec(nearTitle)) ??
    namesOf(ZH_CLOSING.exec(end)) ??
    namesOf(ZH_CLOSING_LINE.exec(end)) ??
    namesOf(articleText ? ZH_PARAGRAPH_CLOSING.exec(articleText) : null) ??
    sourcePerson(articleEnd.trimEnd()) ??
    namesOf(ZH_EDITOR_LABELLED.exec(nearTitle)) ??
    namesOf(ZH_NAME_LINE.exec(underHeadline(articleStart).trimStart())) ??
    namesOf(ZH_NAME_LINE.exec(articleStart.trimStart())) ??
    namesOf(ZH_NAME_LINE.exec(underHeadline(nearTitle).trimStart())) ??
    namesOf(POSTED_BY.exec(articleEnd)) ??
    namesOf(ZH_EDITOR_LABELLED.exec(articleEnd)) ??
    ZH_SIGNATURE.exec(articleEnd)?.[1] ??
    null
  );
}

/** True for a byline that names an organisation (a news site, an agency, a paper) rather than a person. */
export function isOrganisation(author: string): boolean {
  return ORGANISATION.test(author);
}
