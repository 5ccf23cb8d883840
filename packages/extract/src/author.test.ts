import { describe, expect, it } from '@jest/globals';
import { cleanAuthor, cleanByline, findZhByline } from './author.js';

describe('cleanAuthor', () => {
  it('strips byline prefixes and trailing parts', () => {
    expect(cleanAuthor('By Jane Doe')).toBe('Jane Doe');
    expect(cleanAuthor('  Written by   Rob Ewaschuk Edited by Betsy Beyer')).toBe('Rob Ewaschuk');
    expect(cleanAuthor('by Jane Doe | May 5, 2024')).toBe('Jane Doe');
    expect(cleanAuthor('作者：张三')).toBe('张三');
    expect(cleanAuthor('赵 培')).toBe('赵培');
    expect(cleanAuthor('Article by: Cara Dumaplin')).toBe('Cara Dumaplin');
    // Drupal's own byline: `Submitted by NAME on DATE`.
    expect(cleanAuthor('Submitted by Jane Doe on Tue, 03/04/2025 - 10:12')).toBe('Jane Doe');
    expect(cleanAuthor('Submitted')).toBeNull();
    // A site's credits, each name after its role.
    expect(cleanAuthor('content: MarketingSherpa, design: Scott McDaniel, code: Steve Beger, MECLABS')).toBeNull();
    expect(cleanAuthor('Author: Jane Doe')).toBe('Jane Doe');
    expect(cleanAuthor('Jane Doe, Senior Editor')).toBe('Jane Doe, Senior Editor');
    expect(cleanAuthor('Matteo Laratta| Author')).toBe('Matteo Laratta');
  });

  it('takes a label left without its name, or a reading time, for no name', () => {
    // `<p class="authors--byline">By</p>`, the name in an element of its own.
    expect(cleanAuthor('By')).toBeNull();
    expect(cleanAuthor('Promoted by')).toBeNull();
    expect(cleanAuthor('Written By')).toBeNull();
    expect(cleanAuthor('The Author')).toBeNull();
    expect(cleanAuthor('on')).toBeNull();
    // `10` and `mins read` in two elements of a card, the number read as a date line.
    expect(cleanAuthor('mins read')).toBeNull();
    expect(cleanAuthor('5 min read')).toBeNull();
    expect(cleanAuthor('Reading time: 4 minutes')).toBeNull();
    expect(cleanByline('10\nmins read')).toBeNull();
    // Names that hold those words are kept.
    expect(cleanAuthor('By Jane Doe')).toBe('Jane Doe');
    expect(cleanAuthor('Ole By')).toBe('Ole By');
    expect(cleanAuthor('Minnie Read')).toBe('Minnie Read');
  });

  it("strips the byline words and trailing dates of other languages' bylines", () => {
    expect(cleanAuthor('Von Max Mustermann')).toBe('Max Mustermann');
    expect(cleanAuthor('Par Jean Dupont, le 3 mars 2024')).toBe('Jean Dupont');
    expect(cleanAuthor('Por Ana Pérez | 19 de diciembre de 2025')).toBe('Ana Pérez');
    expect(cleanAuthor('Door Jan de Vries')).toBe('Jan de Vries');
    expect(cleanAuthor('Autor: Max Mustermann')).toBe('Max Mustermann');
    expect(cleanAuthor('Автор: Иван Петров')).toBe('Иван Петров');
    expect(cleanAuthor('Max Mustermann, 19. März 2025')).toBe('Max Mustermann');
    // A dateline alone is no name, whatever its first word.
    expect(cleanAuthor('Sat, 20 Dec, 2025 - 06:36')).toBeNull();
  });

  it('keeps a list of names longer than one name may be', () => {
    const team =
      "Nicholas Collins, Scott Munro, Matt De La O, Vineet Asthana, Rory O'Sullivan, Corey Maurer, Hamish Shah, Philipp Bose";
    expect(cleanAuthor(team)).toBe(team);
    // Not a list: a part that is not a name's words, or one long run.
    expect(cleanAuthor(`${team}, and the rest of the research team at the firm`)).toBeNull();
    expect(
      cleanAuthor('Nicholas Collins Scott Munro Matt De La O Vineet Asthana Rory Sullivan Corey Maurer'),
    ).toBeNull();
  });

  it('rejects URLs, dates, numbers and long text', () => {
    expect(cleanAuthor('https://example.com/authors/jane')).toBeNull();
    expect(cleanAuthor('April 28, 2019 at 6:01 am')).toBeNull();
    expect(cleanAuthor('2024-05-17')).toBeNull();
    expect(cleanAuthor('user 545803')).toBeNull();
    // A user's handle may end in a number; a code, a price or a phone number is no handle.
    expect(cleanAuthor('user447274')).toBe('user447274');
    expect(cleanAuthor('B0D1PC8551')).toBeNull();
    expect(cleanAuthor('Model X200')).toBeNull();
    expect(cleanAuthor('word '.repeat(30))).toBeNull();
    expect(cleanAuthor('')).toBeNull();
  });

  it("rejects an editor's or reviewer's credit: not the author", () => {
    expect(cleanAuthor('Updated by Jon Linkov')).toBeNull();
    expect(cleanAuthor('Medically reviewed by Dr. Ann Lee')).toBeNull();
    expect(cleanAuthor('Fact-checked by Bo Chen')).toBeNull();
    expect(cleanAuthor('By Jon Linkov')).toBe('Jon Linkov');
  });
});

describe('cleanAuthor on what author selectors catch besides names', () => {
  it('rejects links and buttons that ask the reader to do something, and prices', () => {
    for (const text of [
      'Follow the author',
      'Visit the Apple Store',
      'Sign In',
      'Read Wendi Weiner’s articles in HuffPost',
      'Comment',
      'Home',
      'billed annually, or $50/mo billed monthly',
      'admin',
      'Administrator',
    ]) {
      expect([text, cleanAuthor(text)]).toEqual([text, null]);
    }
    // Names that begin like them stay names.
    expect(cleanAuthor('Homer Simpson')).toBe('Homer Simpson');
    expect(cleanAuthor('Reader Jones')).toBe('Reader Jones');
    expect(cleanAuthor('Anonymous')).toBe('Anonymous');
    expect(cleanAuthor('q_admin')).toBe('q_admin');
  });

  it('rejects phrases: a lower-case pronoun, question word or auxiliary among the words', () => {
    for (const text of [
      'How we reviewed this article',
      'Is this page helpful?',
      'Meet our experts',
      'What you can do',
    ]) {
      expect([text, cleanAuthor(text)]).toEqual([text, null]);
    }
    // Names, roles and handles with such words capitalised or inside them stay names.
    expect(cleanAuthor('Paul Frew, Home and Digital Security Expert')).toBe(
      'Paul Frew, Home and Digital Security Expert',
    );
    expect(cleanAuthor('Will Smith')).toBe('Will Smith');
    expect(cleanAuthor('Richard I')).toBe('Richard I');
    expect(cleanAuthor('Agatha Caleo, Representative to the Liaison Committee')).toBe(
      'Agatha Caleo, Representative to the Liaison Committee',
    );
    expect(cleanAuthor('thisisjane')).toBe('thisisjane');
  });

  it('ends a name before the weekday of its dateline', () => {
    expect(cleanAuthor('msmash on Friday January 12, 2024 @11:20AM')).toBe('msmash');
    expect(cleanAuthor('EditorDavid on Sunday')).toBe('EditorDavid');
  });
});

describe('findZhByline', () => {
  const near = (nearTitle: string) => findZhByline({ nearTitle, articleStart: '', articleEnd: '' });
  const start = (articleStart: string) => findZhByline({ nearTitle: '', articleStart, articleEnd: '' });
  const end = (articleEnd: string) => findZhByline({ nearTitle: '', articleStart: '', articleEnd });

  it('reads labelled bylines, several names on one line', () => {
    expect(near('光明日报记者 王建宏 张文攀\n\n正文开始')).toBe('王建宏 张文攀');
    expect(near('来源：巴彦淖尔日报 编辑：苏亮')).toBe('苏亮');
    expect(near('文/李明 图/王刚\n\n正文')).toBe('李明');
    expect(near('文｜张小红\n\n正文')).toBe('张小红');
    expect(near('本文观点')).toBeNull();
  });

  it('reads a bracketed name after the dateline time', () => {
    expect(near('某某新闻\n2004年7月16日08:19 [ 黄宇 ] 来源：人民网')).toBe('黄宇');
    expect(near('2004年7月16日 [ 黄宇 ]')).toBeNull(); // a bracket without a time is not a dateline
  });

  it('reads a closing parenthesis or byline line at the end of the article', () => {
    expect(end('……推动高质量发展。（记者 胡晓蓉）')).toBe('胡晓蓉');
    expect(end('这是改革的过程吗？”（姚峰 上海报道）')).toBe('姚峰');
    expect(end('……全面推进。（记者 胡晓蓉 通讯员 李四）')).toBe('胡晓蓉 李四');
    expect(end('……常态化核酸检测工作。\n\n□ 本报记者 葛灵丹\n\n(责编：萧潇、张妍)')).toBe('葛灵丹');
    expect(end('……经历了一次折叠。\n\n新京报记者 彭冲 山东冠县报道\n\n【编辑:刘欢】 返回搜狐，查看更多')).toBe('彭冲');
  });

  it('reads a name alone under the headline, and a blog footer', () => {
    expect(start('我是怎样卷入八九民运的\n\n茉莉\n\n【看中国2005年07月03日报道】一九八九年四月')).toBe('茉莉');
    expect(start('胡平\n\n——当代中国的精神危机 (上)')).toBe('胡平');
    expect(end('无耻指数：10\n\n由海姑娘张贴 @ 2005-06-10 05:41:31 (295) 共 7 篇评论')).toBe('海姑娘');
  });

  it('reads the names that close the last paragraph, with page furniture after them', () => {
    const text = (articleText: string) =>
      findZhByline({ nearTitle: '', articleStart: '', articleEnd: articleText.slice(-60), articleText });
    expect(
      text(
        '标题\n\n用别具一格的形式表达了“清白做人，踏实做事”的决心，倡树廉洁家风，过一个平安、祥和、温馨、廉洁的新春佳节。' +
          '（常书香 马丹阳 ）\n\n数字报\n\n精彩专栏\n\n友情链接',
      ),
    ).toBe('常书香 马丹阳');
    // A bracket inside a sentence is not a byline, nor is a link's section after the article.
    expect(text('他说（张三）今天会来。\n\n数字报\n\n友情链接')).toBeNull();
    expect(
      text(
        '正文\n\n· [幻灯]“窃看”美女别样景 人体摄影背后是什么？ (新闻)\n\n· [幻灯]爆笑：周星驰看球实录 (体育)\n\n版权所有 不得转载',
      ),
    ).toBeNull();
  });

  it('reads a closing 执笔人 line with several names', () => {
    expect(end('……请成为孩子们的清道夫。\n\n执笔人：闵乐夫 赵兰波 刘韬 刘晋芳 胡玉顺')).toBe(
      '闵乐夫 赵兰波 刘韬 刘晋芳 胡玉顺',
    );
  });

  it('prefers the writer to the editor, and takes the editor when no one else is named', () => {
    const places = { nearTitle: '来源：中国新闻网 编辑：刘欢\n\n正文', articleStart: '' };
    expect(findZhByline({ ...places, articleEnd: '……推动高质量发展。（记者 胡晓蓉）' })).toBe('胡晓蓉');
    expect(findZhByline({ ...places, articleEnd: '……推动高质量发展。' })).toBe('刘欢');
    expect(end('……推动高质量发展。\n\n责任编辑：孙重远')).toBe('孙重远');
  });

  it('reads every byline line of the block: reporters, interns and correspondents', () => {
    expect(near('标题\n\n本报实习生 刘国栋 周炜\n\n本报记者 王燕平 方云凤 柏建斌\n\n2003-7-24 钱江晚报')).toBe(
      '刘国栋 周炜 王燕平 方云凤 柏建斌',
    );
    expect(near('本报记者 张三\n通讯员：李四\n\n正文开始')).toBe('张三 李四');
    expect(near('本報記者 張三\n通訊員 李四\n\n正文開始')).toBe('張三 李四');
    // Only whole byline lines join: prose after the byline does not.
    expect(near('本报记者 王燕平\n\n记者 走访了几个工地，发现这里既没有安全防范设施')).toBe('王燕平');
  });

  it("reads a poster's handle after 作者： up to the line's end", () => {
    expect(near('楼层： 第 1 楼 时间：2005-08-28 20:56:20\n\n作者： 放飞&心情\n振威将军(从一品)')).toBe('放飞&心情');
    expect(near('作者：jane_doe\n\n正文')).toBe('jane_doe');
    // A date glued to a Han name is not part of a handle.
    expect(near('作者：张三2022-01-01\n\n正文')).toBe('张三');
  });

  it("reads a post's `name 发表于 date` line", () => {
    expect(near('[湖湘文化]陈天华《警世钟》\nggjjzhzz 发表于 2005-9-15 11:46:00\n\n正文')).toBe('ggjjzhzz');
    expect(near('海姑娘 发布于 2005年6月14日\n\n正文')).toBe('海姑娘');
    expect(near('jane 發表於 2005-9-15 11:46:00')).toBe('jane');
    expect(near('本文 发表于 2005-9-15 11:46:00')).toBeNull();
    expect(near('楼主 发表于 2005-9-15 11:46:00')).toBeNull();
    expect(near('ggjjzhzz 发表于 某杂志')).toBeNull();
  });

  it('reads a closing 来源 line only when it names a person', () => {
    expect(end('……山庄的运作就不愁资金了。”\n\n来源: 尹娟')).toBe('尹娟');
    expect(end('……山庄的运作就不愁资金了。”\n\n来源：新华网')).toBeNull();
    expect(end('……山庄的运作就不愁资金了。”\n\n来源：新浪')).toBeNull();
    expect(end('……山庄的运作就不愁资金了。”\n\n来源：网络')).toBeNull();
    expect(end('……山庄的运作就不愁资金了。”\n\n来源：金融界')).toBeNull();
    expect(end('……就不愁資金了。」\n\n來源：陳明')).toBe('陳明');
  });

  it('takes the issuing body that signs an official notice', () => {
    expect(end('……依法严肃查处。\n\n特此通告。\n\n吉林省人民政府\n\n2022年1月27日\n\n扫一扫在手机打开当前页')).toBe(
      '吉林省人民政府',
    );
    expect(end('……依法严肃查处。\n\n2022年1月27日')).toBeNull();
  });

  it('does not take prose, headings or page furniture for a name', () => {
    expect(near('记者经历了近十年的调查')).toBeNull();
    expect(start('标题\n\n摘要\n\n本文讨论了中文网页的正文抽取方法和评测')).toBeNull();
    expect(end('……\n\n作者：更新资料 订制模板')).toBeNull();
  });
});

describe('cleanAuthor on software credits and page furniture', () => {
  it('refuses them', () => {
    expect(cleanAuthor('Discuz! Team and Comsenz UI Team')).toBeNull();
    expect(cleanAuthor('该作者文章')).toBeNull();
    expect(cleanAuthor('Powered by WordPress')).toBeNull();
    expect(cleanAuthor('Jane Doe')).toBe('Jane Doe');
  });
});

describe('cleanAuthor on bylines glued by markup, dated or in forum user cards', () => {
  it('keeps the name', () => {
    expect(cleanAuthor('BySummer Swann-June 12, 2025')).toBe('Summer Swann');
    expect(cleanAuthor('Written byAAA Travel Editor, SMT')).toBe('AAA Travel Editor, SMT');
    expect(cleanAuthor('Gary MarcusDec 19, 2025')).toBe('Gary Marcus');
    expect(cleanAuthor('May 28 Written By Isabella Tabacchi')).toBe('Isabella Tabacchi');
    expect(cleanAuthor('Dec. 19, 2025 · Niko Matsakis on behalf of Vision Doc group')).toBe('Niko Matsakis');
    expect(cleanAuthor('Post by changingtimes » Sat Feb 24, 2024')).toBe('changingtimes');
    expect(cleanAuthor('drat 1,655 gold badges 14 silver badges')).toBe('drat');
    expect(cleanAuthor('B boobaloobie Full Member Joined Jun 29, 2016')).toBe('boobaloobie');
    expect(cleanAuthor('jldugger – jldugger')).toBe('jldugger');
    expect(cleanAuthor('Mary May')).toBe('Mary May');
  });

  it('refuses labels and comment furniture', () => {
    expect(cleanAuthor('About the Author')).toBeNull();
    expect(cleanAuthor('Full Bio')).toBeNull();
    expect(cleanAuthor('Name *')).toBeNull();
    expect(cleanAuthor('Karl Fleischmann says')).toBeNull();
  });
});

describe('cleanAuthor on labels glued or left around the name', () => {
  it('strips a label whose colon the markup glued to the name', () => {
    expect(cleanAuthor('Posted by:Idle Cartulary')).toBe('Idle Cartulary');
    expect(cleanAuthor('Written By:Cazzy Magennis')).toBe('Cazzy Magennis');
    expect(cleanAuthor('By:Jane Doe')).toBe('Jane Doe');
  });

  it('cuts a label glued after the name, and a sponsor label', () => {
    expect(cleanAuthor('Reyan PerumalPublished')).toBe('Reyan Perumal');
    expect(cleanAuthor('Cazzy MagennisLast Updated')).toBe('Cazzy Magennis');
    expect(cleanAuthor('Jane DoeReviewed by John Roe')).toBe('Jane Doe');
    expect(cleanAuthor('Help Net Security Sponsored')).toBe('Help Net Security');
    // Case matters: a word that holds the label is no label.
    expect(cleanAuthor('Jane Unedited')).toBe('Jane Unedited');
    expect(cleanAuthor('Sam Republished')).toBe('Sam Republished');
  });

  it("cuts a reviewer's credit after the author's name", () => {
    expect(cleanAuthor('Shelby Loos, DVM. Reviewed by Molly Price, DVM')).toBe('Shelby Loos, DVM');
    expect(cleanAuthor('Jane Doe Medically reviewed by John Roe, MD')).toBe('Jane Doe');
    expect(cleanAuthor('Jane Doe, fact-checked by John Roe')).toBe('Jane Doe');
  });

  it('strips the kind of work before `by`, and an `About` label', () => {
    expect(cleanAuthor('Recipe by PJ Hamel')).toBe('PJ Hamel');
    expect(cleanAuthor('Interview by Jane Doe')).toBe('Jane Doe');
    expect(cleanAuthor('About Sara Harberson')).toBe('Sara Harberson');
    expect(cleanAuthor('About the Author: Tom')).toBe('Tom');
    expect(cleanAuthor('About the authors: Jane Doe, John Roe')).toBe('Jane Doe, John Roe');
    expect(cleanAuthor('About Us')).toBeNull();
    expect(cleanAuthor('About this site')).toBeNull();
  });

  it('drops a closing quote left of the markup', () => {
    expect(cleanAuthor('David Kim"')).toBe('David Kim');
    expect(cleanAuthor('Jane "JD" Doe')).toBe('Jane "JD" Doe');
    expect(cleanAuthor('Jane "JD"')).toBe('Jane "JD"');
  });

  it("refuses a template's unfilled field, and keeps user names with dots", () => {
    expect(cleanAuthor('page.head.extra.author')).toBeNull();
    expect(cleanAuthor('post.author.name')).toBeNull();
    expect(cleanAuthor('{{ author }}')).toBeNull();
    expect(cleanAuthor('%author%')).toBeNull();
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template's placeholder as the page shows it
    expect(cleanAuthor('${post.author}')).toBeNull();
    expect(cleanAuthor('undefined')).toBeNull();
    expect(cleanAuthor('By null')).toBeNull();
    expect(cleanAuthor('sara.r.peter')).toBe('sara.r.peter');
    expect(cleanAuthor('john.smith')).toBe('john.smith');
  });
});

describe('cleanByline', () => {
  it('takes the first line that is neither a label nor a date, and only that line', () => {
    expect(cleanByline('Written By\nStephen Jesudunsin\nAI Writer, Embarque')).toBe('Stephen Jesudunsin');
    expect(cleanByline('Updated January 08, 2026\nWritten by Meghan Neville\nContent Marketing Coordinator')).toBe(
      'Meghan Neville',
    );
    expect(cleanByline('Matteo Laratta\n| Author')).toBe('Matteo Laratta');
    // A user name that is no name (digits) is not replaced by the user's rank on the next line; a
    // handle ending in a number is a name.
    expect(cleanByline('user 545803\nDistinguished Member\nJoined\nAug 24, 2006')).toBeNull();
    expect(cleanByline('lgans316\nDistinguished Member\nJoined\nAug 24, 2006')).toBe('lgans316');
    expect(cleanByline('Author:\n\n')).toBeNull();
  });

  it('reads a one-line byline as cleanAuthor does', () => {
    expect(cleanByline('Authored by: Dr. Ehsan Jazini')).toBe('Dr. Ehsan Jazini');
    expect(cleanByline('By Jane Doe | May 5, 2024')).toBe('Jane Doe');
  });
});
