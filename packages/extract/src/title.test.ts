import { describe, expect, it } from '@jest/globals';
import { reconcileTitle, type TitleSources } from './title.js';
import { MAX_RUN_CHARS, segmentRuns } from './title-strip.js';

const base: TitleSources = {
  ogTitle: null,
  jsonLdHeadline: null,
  readabilityTitle: null,
  docTitle: '',
  h1: '',
  siteName: null,
  url: 'https://www.vanguard.com/funds/index.html',
};
const title = (over: Partial<TitleSources>): string => reconcileTitle({ ...base, ...over });

describe('reconcileTitle', () => {
  it('prefers og:title, then the JSON-LD headline, Readability, <title> and the <h1>', () => {
    expect(title({ ogTitle: 'OG', jsonLdHeadline: 'LD', docTitle: 'Doc', h1: 'H1' })).toBe('OG');
    expect(title({ jsonLdHeadline: 'LD', docTitle: 'Doc', h1: 'H1' })).toBe('LD');
    expect(title({ docTitle: '', h1: 'The headline' })).toBe('The headline');
  });

  it('cuts a declared title of more than 1,000 characters after a word, and prefers one that says less', () => {
    const stuffed = Array.from({ length: 400 }, (_, i) => `keyword${i}`).join(' ');
    const cut = title({ docTitle: stuffed });
    expect(cut.length).toBeLessThanOrEqual(1_000);
    expect(cut).toMatch(/^keyword0 keyword1 .* keyword\d+…$/);
    expect(title({ ogTitle: stuffed, docTitle: 'Cheap flights to Lisbon' })).toBe('Cheap flights to Lisbon');
  });

  it("keeps the kicker Readability cut before a title's colon when the headline starts with it", () => {
    const docTitle = 'Energiewende: Windkraftanlagen in Schleswig-Holstein liefern Rekordstrom';
    const readabilityTitle = 'Windkraftanlagen in Schleswig-Holstein liefern Rekordstrom';
    const url = 'https://example.de/news/energie';
    expect(title({ docTitle, readabilityTitle, url, h1: 'Energiewende: Windkraftanlagen liefern Rekordstrom' })).toBe(
      docTitle,
    );
    // A headline without it, or one that only starts with the same letters, leaves Readability's cut.
    expect(title({ docTitle, readabilityTitle, url, h1: 'Windkraftanlagen liefern Rekordstrom' })).not.toContain(
      'Energiewende',
    );
    expect(title({ docTitle: 'The: Best pans', readabilityTitle: 'Best pans', url, h1: 'Theory of pans' })).not.toMatch(
      /^The:/,
    );
  });

  it('is never a bare URL or empty while a source has a title', () => {
    expect(title({ ogTitle: 'https://example.com/page', docTitle: 'Real title' })).toBe('Real title');
    expect(title({ docTitle: '   ', h1: 'Shown headline' })).toBe('Shown headline');
    expect(title({})).toBe('');
  });

  it('removes the site name by site name, host, matching <h1> or a trailing pipe', () => {
    expect(title({ docTitle: 'Index Funds: How to Invest | Vanguard' })).toBe('Index Funds: How to Invest');
    expect(title({ docTitle: 'Vanguard - Index Funds: How to Invest' })).toBe('Index Funds: How to Invest');
    expect(title({ ogTitle: 'Story | The Daily', siteName: 'The Daily' })).toBe('Story');
    expect(title({ docTitle: 'Quickstart — Flask Documentation (3.1.x)', h1: 'Quickstart' })).toBe('Quickstart');
    expect(title({ docTitle: 'What do people love about Rust? | Rust Blog' })).toBe('What do people love about Rust?');
    expect(title({ docTitle: 'Lorem ipsum dolor sit amet – My website' })).toBe('Lorem ipsum dolor sit amet');
  });

  it("drops a forum engine's page kind and what comes before it: `Site • View topic - Headline`", () => {
    const url = 'http://192.0.2.7/viewtopic.php?t=487157';
    expect(title({ url, docTitle: 'NationStates • View topic - 2025-26 Football Season: MLS is Back!' })).toBe(
      '2025-26 Football Season: MLS is Back!',
    );
    expect(title({ url, docTitle: 'View topic - Solar panels on a north-facing roof' })).toBe(
      'Solar panels on a north-facing roof',
    );
    // Only as a whole segment: a headline about viewing a topic keeps its words.
    expect(title({ url, docTitle: 'How to view topic history in Teams' })).toBe('How to view topic history in Teams');
  });

  it('keeps separators that belong to the headline', () => {
    expect(title({ docTitle: 'Wool-Runner review: soft - and warm, really warm' })).toBe(
      'Wool-Runner review: soft - and warm, really warm',
    );
    expect(title({ docTitle: 'Site', siteName: 'Site' })).toBe('Site');
  });

  it("drops a separator a template's empty part left, and the site's name left alone gives way to the <h1>", () => {
    const url = 'https://www.nutsvolts.com/magazine/gadgets';
    expect(title({ docTitle: 'The 16 Best Clothing Subscription Boxes in 2025 |', url })).toBe(
      'The 16 Best Clothing Subscription Boxes in 2025',
    );
    expect(title({ docTitle: ' - My Blog', url })).toBe('My Blog');
    expect(title({ docTitle: '| Nuts & Volts Magazine', h1: 'Electronic Gadgets', url })).toBe('Electronic Gadgets');
    expect(title({ docTitle: '| Nuts & Volts Magazine', url })).toBe('Nuts & Volts Magazine');
    expect(title({ ogTitle: ' | Nuts & Volts', docTitle: 'Electronic Gadgets | Nuts & Volts', url })).toBe(
      'Electronic Gadgets',
    );
    // A minus sign is not a separator.
    expect(title({ docTitle: '-40 degrees in Winnipeg', url })).toBe('-40 degrees in Winnipeg');
  });

  it('takes the <h1> a declared title confirms, whole or as one of its parts', () => {
    const sources = { ogTitle: 'Using ML To Personalize Shopping', docTitle: 'How ML Personalizes Shopping | Shop' };
    expect(title({ ...sources, h1s: ['Shop', 'How ML Personalizes Shopping'] })).toBe('How ML Personalizes Shopping');
    // Unconfirmed, the declared title wins; on a declared article the shown headline does.
    expect(title({ ogTitle: 'Using ML To Personalize Shopping', h1: 'How ML Personalizes Shopping' })).toBe(
      'Using ML To Personalize Shopping',
    );
    expect(
      title({ ogTitle: 'Using ML To Personalize Shopping', h1: 'How ML Personalizes Shopping', declaresArticle: true }),
    ).toBe('How ML Personalizes Shopping');
    // twitter:title alone does not confirm an <h1>.
    expect(title({ ogTitle: 'Same story', twitterTitle: 'Other words', h1: 'Other words' })).toBe('Same story');
  });

  it('takes an <h1> that is a shorter run of the declared title', () => {
    expect(title({ ogTitle: 'Headlamps for Camping, Hiking & Running | REI', h1: 'Headlamps' })).toBe('Headlamps');
    // Nearly the whole title is the title reworded (see below), not a shorter name.
    expect(
      title({ ogTitle: 'Zero Waste for Beginners Archives - Going Zero Waste', h1: 'Zero Waste for Beginners' }),
    ).toBe('Zero Waste for Beginners');
  });

  it('takes an <h1> that words the declared title a little differently', () => {
    expect(
      title({
        ogTitle: '39 Best Electrician Tools for Your Business (2025)',
        h1: '39 Best Electrician Tools for Your Business in 2025',
      }),
    ).toBe('39 Best Electrician Tools for Your Business in 2025');
    expect(
      title({ docTitle: '7 Mental Health Trends to Watch in 2024', h1: '7 Mental Health Trends to Watch in 2025' }),
    ).toBe('7 Mental Health Trends to Watch in 2025');
    // Not one in capitals, one that adds a label or a tail, or one whose encoding lost characters.
    const declared = 'How Much Does a House Renovation Cost? [2025 Data]';
    expect(title({ ogTitle: declared, h1: 'HOW MUCH DOES A HOUSE RENOVATION COST IN 2025?' })).toBe(declared);
    expect(
      title({
        ogTitle: 'What do you pay attention to when buying hosting?',
        h1: 'Thread: What do you pay attention to when buying hosting?',
      }),
    ).toBe('What do you pay attention to when buying hosting?');
    expect(
      title({ ogTitle: 'Data Analysis Tools for 2026', h1: 'Data Analysis Tools for 2026 (example.com) 139' }),
    ).toBe('Data Analysis Tools for 2026');
    expect(title({ ogTitle: "Event Planning: A Beginner's Guide", h1: 'Event Planning? A Beginner? Guide' })).toBe(
      "Event Planning: A Beginner's Guide",
    );
    // Chinese and Japanese titles are compared by characters, where a headline and its `_Site`
    // tail look alike: the tail goes as a site's name (see the test of such titles below), not as
    // a rewording, and a headline that only words it differently is not taken.
    const qq = 'DeepMind新电脑已可利用记忆自学 人工智能迈上新台阶';
    expect(title({ docTitle: `${qq}_科技_腾讯网`, h1: qq })).toBe(qq);
    expect(title({ docTitle: `${qq}_科技_腾讯网`, h1: 'DeepMind新电脑可利用记忆自学' })).toBe(qq);
  });

  it('drops a pipe section that the <h1> repeats from the <title>', () => {
    expect(
      title({
        docTitle: 'How meditation rewires brains | Opinion',
        h1: 'How meditation rewires brains | Opinion',
        siteName: 'The Appeal',
      }),
    ).toBe('How meditation rewires brains');
  });

  it('reads a title as shown: entities escaped twice, soft hyphens, a dateline or a path in the <h1>', () => {
    expect(title({ ogTitle: 'The Cream with TFC8&reg; Face&nbsp;Moisturizer &amp; Serum' })).toBe(
      'The Cream with TFC8® Face Moisturizer & Serum',
    );
    expect(
      title({ docTitle: 'Home Repair Assis\u00ADtance Program', h1: 'Home Repair Assis\u00ADtance Program' }),
    ).toBe('Home Repair Assistance Program');
    expect(
      title({
        ogTitle: 'Backpacking Checklist (By a Guide!)',
        h1: 'Backpacking Checklist (By a Guide!) January 1, 2025',
        declaresArticle: true,
      }),
    ).toBe('Backpacking Checklist (By a Guide!)');
    expect(title({ ogTitle: 'How we found a supply-chain attack', h1: '/writeup.md', declaresArticle: true })).toBe(
      'How we found a supply-chain attack',
    );
  });

  it('skips an og:title that is only the site name or cut short', () => {
    expect(title({ ogTitle: 'Robomow', docTitle: 'Which mower for which lawn? | Robomow', siteName: 'Robomow' })).toBe(
      'Which mower for which lawn?',
    );
    expect(
      title({
        ogTitle: 'What do you guys think will be the...',
        docTitle: 'What do you guys think will be the trend?',
      }),
    ).toBe('What do you guys think will be the trend?');
  });

  it('drops a site prefix, a site-naming <h1> and section tails, keeping the site on its home page', () => {
    const arch = { url: 'https://bbs.archlinux.org/viewtopic.php?id=1', h1s: ['Arch Linux'] };
    expect(
      title({ ...arch, docTitle: 'What happened with Arch Linux ISO / Arch Discussion / Arch Linux Forums' }),
    ).toBe('What happened with Arch Linux ISO');
    expect(title({ docTitle: 'Garnix Blog: Hardware-Attested Nix Builds', url: 'https://garnix.io/blog/x' })).toBe(
      'Hardware-Attested Nix Builds',
    );
    expect(title({ docTitle: 'Slashdot: News for nerds', url: 'https://slashdot.org/' })).toBe(
      'Slashdot: News for nerds',
    );
  });

  it("keeps a home page's leading `Site: ` and still drops its trailing site name", () => {
    const home = { url: 'https://www.airtable.com/', siteName: 'Airtable' };
    expect(title({ ...home, ogTitle: 'Airtable: Build AI Workflows, Apps & Agents - Airtable' })).toBe(
      'Airtable: Build AI Workflows, Apps & Agents',
    );
    // Below the home page the same prefix still goes.
    expect(title({ ...home, url: 'https://www.airtable.com/guides', ogTitle: 'Airtable: Build AI Workflows' })).toBe(
      'Build AI Workflows',
    );
  });

  it('does not take a later <h1> of a page that uses many as section headings', () => {
    const blog = {
      ogTitle: 'Advent of Code 2025 week 2',
      docTitle: "RogerBW's Blog: Advent of Code 2025 week 2",
      h1: "RogerBW's Blog",
      h1s: ["RogerBW's Blog", 'Day 7', 'Day 8', 'Day 9'],
      siteName: "RogerBW's Blog",
      url: 'https://blog.firedrake.org/archive/2025/12/x.html',
      declaresArticle: true,
    };
    expect(title(blog)).toBe('Advent of Code 2025 week 2');
    // With only two, the one after the logo is the headline.
    const second = 'Advent of Code: the second week';
    expect(title({ ...blog, h1s: ["RogerBW's Blog", second] })).toBe(second);
  });

  it("treats an <h1> after a space at the end of a Chinese <title> as the site's name", () => {
    const page = {
      docTitle: '土豆不“土” 土豆无“土” 松花江网',
      readabilityTitle: '土豆不“土” 土豆无“土” 松花江网',
      h1: '松花江网',
      h1s: ['松花江网'],
      url: 'http://www.shj.example.cn/system/2022/01/20/015.shtml',
    };
    expect(title(page)).toBe('土豆不“土” 土豆无“土”');
    // Another declared title loses the same logo, and keeps its own words.
    expect(title({ ...page, ogTitle: '土豆不土 松花江网' })).toBe('土豆不土');
    // Not the site's <h1>: the title stays whole.
    expect(title({ ...page, h1: '土豆', h1s: ['土豆'] })).not.toBe('土豆不“土” 土豆无“土”');
    // A space inside Latin text is a word's, not a separator.
    expect(title({ docTitle: 'Getting started with React', h1: 'React', h1s: ['React'] })).not.toBe(
      'Getting started with',
    );
  });

  it("treats an <h1> equal to the <title>'s last part as the book or site's name", () => {
    const book = {
      docTitle: 'What is Ownership? - The Rust Programming Language',
      h1: 'The Rust Programming Language',
      h1s: ['The Rust Programming Language'],
      url: 'https://doc.rust-lang.org/book/ch04-01-what-is-ownership.html',
    };
    expect(title(book)).toBe('What is Ownership?');
    expect(
      title({
        ogTitle: 'Plan and intended audience | Introduction to Quantum Information Science',
        docTitle: 'Plan and intended audience | Introduction to Quantum Information Science',
        h1: 'Introduction to Quantum Information Science',
        url: 'https://qubit.guide/plan-and-intended-audience',
      }),
    ).toBe('Plan and intended audience');
  });

  it('takes, of a declared title and an <h1> that disagree, the one the URL slug was made from', () => {
    const reddit = {
      docTitle: 'Reddit - The heart of the internet',
      h1: 'Best Laptop for College to Buy in 2026? (Price, Battery Life, Portability)',
      url: 'https://www.reddit.com/r/BuyItForLife/comments/1rjl74r/best_laptop_for_college_to_buy_in_2026_price/',
    };
    expect(title(reddit)).toBe('Best Laptop for College to Buy in 2026? (Price, Battery Life, Portability)');
    const coupons = {
      ogTitle: 'Pest Control Coupons | Pest-R-Us Pest Services',
      h1: 'Special Offers',
      declaresArticle: true,
      url: 'https://pestrus.com/pest-control-coupons/',
    };
    expect(title(coupons)).toBe('Pest Control Coupons');
    const wrapUp = {
      docTitle: 'Metasploit Weekly Wrap-Up',
      ogTitle: 'Metasploit Weekly Wrap-Up',
      h1: 'Metasploit Wrap-Up 12/19/2025',
      url: 'https://www.rapid7.com/blog/post/metasploit-wrap-up-12-19-2025',
    };
    expect(title(wrapUp)).toBe('Metasploit Wrap-Up 12/19/2025');
    // Without a slug the agreement rules decide alone.
    expect(title({ ...wrapUp, url: 'https://www.rapid7.com/blog/post/?p=12' })).toBe('Metasploit Weekly Wrap-Up');
  });

  it('does not take an <h1> of sentences (a summary in the wrong element) over a declared title', () => {
    const declared = 'The 10 Best Home Improvement ROI Projects of 2023 (According to Experts)';
    const summary =
      'Learn which home renovations have the best ROI (return on investment)? Get expert tips on how to ' +
      "calculate home improvement ROI. We'll help you learn everything you need to know.";
    const page = {
      ogTitle: `${declared} | RenoFi`,
      jsonLdHeadline: `${declared} | RenoFi`,
      docTitle: `${declared} | RenoFi | RenoFi`,
      h1: summary,
      h1s: [summary],
      declaresArticle: true,
      // The slug's words are the summary's more than the title's.
      url: 'https://www.renofi.com/home-renovations/renovation-best-return-on-investment/',
    };
    expect(title(page)).toBe(declared);
    // Alone, it is the page's title; initials are no sentence's end.
    expect(title({ ...page, ogTitle: null, jsonLdHeadline: null, docTitle: '' })).toBe(summary);
    const book =
      'Once and Future World: Nature as It Was, as It Is, as It Could Be by J. B. MacKinnon (2013, Hardcover) for sale online, new and used';
    const listing = { ogTitle: 'Once and Future World', h1: book, h1s: [book], declaresArticle: true, url: page.url };
    expect(title(listing)).toBe(book);
  });

  it("takes on an article the declared title over an <h1> that shares no word with it (a section's banner)", () => {
    const post = {
      ogTitle: "Actuary's Industry Choice - Consulting or Insurance?",
      jsonLdHeadline: "Actuary's Industry Choice: Consulting or Insurance?",
      docTitle: "Actuary's Industry Choice - Consulting or Insurance?",
      h1: 'Our BLOG',
      h1s: ['Our BLOG'],
      declaresArticle: true,
      url: 'https://www.example.com/?p=4120',
    };
    expect(title(post)).toBe("Actuary's Industry Choice - Consulting or Insurance?");
    const coupons = { ogTitle: 'Pest Control Coupons | Pest-R-Us', h1: 'Special Offers', declaresArticle: true };
    expect(title({ ...coupons, url: 'https://pestrus.com/?p=12' })).toBe('Pest Control Coupons');
    // An <h1> in the declared title's words, worded its own way, is still the article's headline.
    expect(title({ ...post, h1: 'Consulting or insurance: where actuaries work', h1s: [] })).toBe(
      'Consulting or insurance: where actuaries work',
    );
  });

  it('drops a bracketed site name, and the site from an <h1> that repeats the whole <title>', () => {
    expect(title({ docTitle: 'Welcome to LWN.net [LWN.net]', url: 'https://lwn.net/' })).toBe('Welcome to LWN.net');
    const whole = 'How to help babies sleep through the night | Patient Education | UC Davis Health';
    expect(title({ docTitle: whole, h1: whole, url: 'https://health.ucdavis.edu/children/sleep' })).toBe(
      'How to help babies sleep through the night',
    );
  });

  it('drops the site and section names a Chinese or Japanese title appends without spaces', () => {
    const zh = (docTitle: string, h1 = '') => title({ docTitle, h1, url: 'https://news.example.cn/a/1.html' });
    expect(zh('今年夏天北方降雨偏多 专家解读原因__天气_资讯频道_示例网')).toBe('今年夏天北方降雨偏多 专家解读原因');
    expect(zh('新能源汽车下乡活动启动_示例市人民政府门户网站')).toBe('新能源汽车下乡活动启动');
    expect(zh('秋天该怎么吃水果？-示例日报')).toBe('秋天该怎么吃水果？');
    expect(zh('新しい駅ビルが来春開業へ｜示例ニュース')).toBe('新しい駅ビルが来春開業へ');
    // The part the page shows as its <h1> is the headline.
    expect(zh('地方新闻_图片报道_示例网', '图片报道')).toBe('图片报道');
    // An angle mark parts them too, and a last part that calls itself a web site goes even when it
    // is longer than the headline.
    expect(zh('艺术史研究<世纪在线中国艺术网')).toBe('艺术史研究');
    expect(zh('艺术史研究‹世纪在线中国艺术网')).toBe('艺术史研究');
    expect(zh('短讯_示例省人民政府门户网站')).toBe('短讯');
    // A longer last part that is no site's name stays (see the test below).
    expect(zh('短标题_这是一个相当长的栏目名称')).toBe('短标题_这是一个相当长的栏目名称');
  });

  it("keeps a Chinese headline's own dashes, hyphenated words and dates", () => {
    const zh = (docTitle: string) => title({ docTitle, url: 'https://news.example.cn/a/1.html' });
    // `——` is Chinese punctuation inside a headline: its subtitle stays.
    expect(zh('凝聚发展力量——示例市第五届代表大会开幕_示例市人民政府网')).toBe(
      '凝聚发展力量——示例市第五届代表大会开幕',
    );
    expect(zh('COVID-19疫苗接种指南 2022-02-13更新_健康频道')).toBe('COVID-19疫苗接种指南 2022-02-13更新');
    // Only tails after a separator like the last one go: the hyphenated subtitle stays.
    expect(zh('春运首日客流平稳-各地加开列车_交通频道')).toBe('春运首日客流平稳-各地加开列车');
    expect(zh('短标题_这是一个相当长的栏目名称超过十六个字的部分')).toBe(
      '短标题_这是一个相当长的栏目名称超过十六个字的部分',
    );
  });

  it("drops a thread's short label before the JSON-LD headline (`News - …`), and keeps a longer first part", () => {
    const forum = {
      docTitle: 'News - Digital Cameras: A 2024 "status symbol"? | Cameraderie',
      ogTitle: 'News - Digital Cameras: A 2024 "status symbol"?',
      // The label's own element glued to the headline in the <h1>.
      h1: 'News Digital Cameras: A 2024 "status symbol"?',
      siteName: 'Cameraderie',
      url: 'https://cameraderie.org/threads/digital-cameras-a-2024-status-symbol.56948/',
    };
    expect(title({ ...forum, jsonLdHeadline: 'Digital Cameras: A 2024 "status symbol"?' })).toBe(
      'Digital Cameras: A 2024 "status symbol"?',
    );
    // Without the JSON-LD headline nothing says which part is a label.
    expect(title(forum)).toBe('News - Digital Cameras: A 2024 "status symbol"?');
    // A first part of more than three words is a headline's own.
    const series = 'Five Things We Learned This Week - Why the market fell and what comes next';
    expect(
      title({ ogTitle: series, docTitle: series, jsonLdHeadline: 'Why the market fell and what comes next' }),
    ).toBe(series);
  });

  it('keeps a dating tail, which names no site', () => {
    expect(title({ docTitle: 'The Best Cheap Wireless Earbuds under $50 - March 2026' })).toBe(
      'The Best Cheap Wireless Earbuds under $50 - March 2026',
    );
    expect(title({ docTitle: 'Tech conferences in Americas 2026 / 2027' })).toBe(
      'Tech conferences in Americas 2026 / 2027',
    );
  });

  it('takes the <h1> and <title> over og:title when og:title gives other numbers', () => {
    const solar = {
      ogTitle: 'How to Install Solar Panels in 2025',
      docTitle: 'How to Install Solar Panels in 2026 | EnergySage',
      h1: 'How to install solar panels in 2026',
      siteName: 'EnergySage',
    };
    expect(title(solar)).toBe('How to install solar panels in 2026');
    // A mere rewording keeps og:title.
    const reworded = {
      ogTitle: 'How To Install Your Solar Panels in 2025',
      docTitle: 'How to install solar panels in 2025',
    };
    expect(title({ ...solar, ...reworded, h1: 'How to install solar panels in 2025' })).toBe(
      'How To Install Your Solar Panels in 2025',
    );
  });

  it('takes an <h1> confirmed by a colon-separated part of the <title>', () => {
    expect(
      title({
        docTitle: 'Amazon.com: Wireless Earbuds for Android (White) : Electronics',
        h1: 'Wireless Earbuds for Android (White)',
        url: 'https://www.amazon.com/dp/B0D1PC8551',
      }),
    ).toBe('Wireless Earbuds for Android (White)');
  });

  it('takes the whole <h1> when the <title> is it cut off mid-word', () => {
    expect(
      title({
        docTitle: 'Ergonomic desk step by step: how to set up your monitor, laptop, and k | Oakywood.shop',
        h1: 'Ergonomic desk step by step: how to set up your monitor, laptop, and keyboard (checklist)',
        url: 'https://oakywood.shop/blogs/news/ergonomic-desk',
      }),
    ).toBe('Ergonomic desk step by step: how to set up your monitor, laptop, and keyboard (checklist)');
  });

  it('takes the <h1> when the <title> only says the page is a home page', () => {
    expect(
      title({
        docTitle: 'Best Sharpening Stones ® | Home Page',
        h1: 'Welcome to Best Sharpening Stones',
        url: 'https://www.bestsharpeningstones.com/',
      }),
    ).toBe('Welcome to Best Sharpening Stones');
  });

  it('repairs UTF-8 read as Windows-1252', () => {
    expect(title({ docTitle: 'A DIY Investor\u00e2\u20ac\u2122s Guide' })).toBe('A DIY Investor’s Guide');
  });
});

describe('segmentRuns', () => {
  it("reads every run of a title's parts that holds its longest part, folded", () => {
    expect([...segmentRuns('News - The Long Headline Here | Site')]).toEqual([
      'thelongheadlinehere',
      'thelongheadlineheresite',
      'newsthelongheadlinehere',
      'newsthelongheadlineheresite',
    ]);
  });

  it('keeps no run longer than an <h1> it is compared with, however many parts the title has', () => {
    const parts = Array.from({ length: 5_000 }, (_, i) => `Part ${i}`);
    parts[2_500] = 'The longest part of them all';
    const runs = [...segmentRuns(parts.join(' - '))];
    expect(runs).toContain('thelongestpartofthemall');
    expect(runs).toContain('part2499thelongestpartofthemallpart2501');
    expect(Math.max(...runs.map((run) => run.length))).toBeLessThanOrEqual(MAX_RUN_CHARS);
    // Runs of up to 300 characters around the longest part: a few hundred, not millions of characters.
    expect(runs.length).toBeLessThan(2_000);
  });
});
