import type { Filetype, PageDocument } from '@quarry/core';

/** A fixed reference time so fixtures never depend on the clock. */
export const FIXTURE_NOW = '2026-06-01T00:00:00Z';

const DAY_MS = 86_400_000;

/** Builds a valid `PageDocument` with defaults; tests override what they are about. */
export function makePage(
  id: string,
  url: string,
  title: string,
  body: string,
  extra: Partial<PageDocument> = {},
): PageDocument {
  return {
    id,
    url,
    title,
    body_text: body,
    lang: 'en',
    author: null,
    published_at: null,
    crawled_at: daysBefore(10),
    site_name: null,
    has_llms_txt: false,
    filetype: 'html',
    domain: new URL(url).hostname,
    word_count: body.split(/\s+/).length,
    ...extra,
  };
}

/** ISO time `days` before {@link FIXTURE_NOW}. */
export function daysBefore(days: number): string {
  return `${new Date(Date.parse(FIXTURE_NOW) - days * DAY_MS).toISOString().slice(0, 19)}Z`;
}

const FILLER_TOPICS = [
  'gardening tomatoes soil compost watering',
  'history medieval castles kings battles',
  'cooking pasta sauce garlic olive oil',
  'astronomy telescopes galaxies stars nebula',
  'finance budgets savings interest loans',
  'music guitar chords melody rhythm',
  'travel trains stations tickets luggage',
  'chemistry molecules reactions acids bases',
];

/**
 * The shared corpus: a few pages each test is about, plus filler pages so that term statistics are
 * realistic (a word in every page would carry no weight with any ranking function).
 */
export function contractCorpus(): PageDocument[] {
  const long = `${'Background text about many unrelated things. '.repeat(20)}`;
  const pages: PageDocument[] = [
    makePage(
      'cats',
      'https://example.com/cats',
      'Cats and their habits',
      `${long} Cats are curious pets that sleep a lot.`,
    ),
    makePage(
      'dogs-bark',
      'https://example.com/dogs',
      'Dogs bark',
      'Dogs bark loudly at the mail carrier every morning.',
    ),
    makePage(
      'dogs-quiet',
      'https://blog.example.com/quiet',
      'Quiet dogs',
      'Some dogs rarely make noise; greyhounds are calm.',
    ),
    makePage(
      'wolves',
      'https://wild.example.org/wolves',
      'Wolves in winter',
      'Wolves hunt in packs through deep snow.',
    ),
    makePage('lookalike', 'https://badexample.com/dogs', 'Dogs for sale', 'Dogs and puppies for sale, cheap dogs.'),
    makePage(
      'solar-phrase',
      'https://energy.example.net/solar',
      'Energy',
      'A solar panel converts sunlight into power.',
    ),
    makePage(
      'solar-apart',
      'https://energy.example.net/panel',
      'Energy review',
      'The panel discussed solar subsidies at length.',
    ),
    makePage(
      'title-only',
      'https://example.net/t',
      'Volcano eruption report',
      'Lava flows reached the coast by evening.',
    ),
    makePage('body-only', 'https://example.net/b', 'Island news', 'The volcano was quiet for decades before.'),
    makePage('reinvent', 'https://aws.example.com/ri', 'Conference notes', 'Announcements from re:Invent this year.'),
    // `site:` with a path: under /guide (any case), not /guidebook; the subdomain's pages too.
    makePage('glacier-guide', 'https://docs.example.io/Guide/Glaciers/intro', 'Glacier guide', 'Glacier ice flows.'),
    makePage('glacier-guidebook', 'https://docs.example.io/guidebook/glaciers', 'Glacier book', 'Glacier ice melts.'),
    makePage('glacier-news', 'https://example.io/guide/glacier-news?page=2', 'Glacier news', 'A glacier retreats.'),
    // An address as its host, its domain written as the crawler and the import write it (no brackets).
    makePage('moraine-v6', 'http://[2001:db8::7]:8080/field/notes', 'Moraine notes', 'A moraine of till.', {
      domain: '2001:db8::7',
    }),
    makePage('moraine-v4', 'http://192.0.2.7/field/notes', 'Moraine notes', 'A moraine of gravel.', {
      domain: '192.0.2.7',
    }),
    // The same address serving another site on a port of its own.
    makePage('moraine-port', 'http://192.0.2.7:8901/field/notes', 'Moraine notes', 'A moraine of sand.', {
      domain: '192.0.2.7',
    }),
    makePage(
      'zh-search',
      'https://zh.example.cn/1',
      '搜索引擎的发展',
      '我们使用搜索引擎查找信息，搜索引擎改变了生活。',
      {
        lang: 'zh',
      },
    ),
    makePage('zh-weather', 'https://zh.example.cn/2', '天气预报', '明天北京天气晴朗，适合出行。', { lang: 'zh' }),
    makePage('fresh', 'https://news.example.org/fresh', 'Comet sighted', 'A bright comet was sighted over the hills.', {
      crawled_at: daysBefore(1),
    }),
    makePage('stale', 'https://news.example.org/stale', 'Comet archive', 'An old comet report from the archive.', {
      crawled_at: daysBefore(400),
    }),
    makePage('pdf', 'https://docs.example.org/report.pdf', 'Annual report', 'Quarterly revenue figures and outlook.', {
      filetype: 'pdf',
    }),
    makePage('doc', 'https://docs.example.org/report.doc', 'Annual report draft', 'Quarterly revenue draft figures.', {
      filetype: 'doc',
    }),
    makePage(
      'docx',
      'https://docs.example.org/report.docx',
      'Annual report final',
      'Quarterly revenue final figures.',
      {
        filetype: 'docx',
      },
    ),
    makePage('ods', 'https://docs.example.org/report.ods', 'Annual report sheet', 'Quarterly revenue sheet figures.', {
      filetype: 'ods',
    }),
  ];
  for (const lang of ['en', 'de', 'fr']) {
    for (let i = 0; i < 4; i++) {
      pages.push(
        makePage(
          `tea-${lang}-${i}`,
          `https://tea${i}.example.${lang}/tea`,
          `Tea guide ${i}`,
          `Green tea brewing guide number ${i}. Steep the tea leaves gently.`,
          { lang },
        ),
      );
    }
  }
  FILLER_TOPICS.forEach((topic, i) => {
    for (let j = 0; j < 3; j++) {
      pages.push(
        makePage(
          `filler-${i}-${j}`,
          `https://filler${i}.example.io/${j}`,
          `Notes ${i}.${j}`,
          `${topic} ${topic} part ${j}`,
        ),
      );
    }
  });
  return pages;
}

/** The site of {@link listingCorpus}. */
export const LISTING_SITE = 'changes.example.dev';

/**
 * One site's pages crawled on different days, written in an order that is not their crawl order
 * (an index's own order must not pass for newest first), some holding the word `draft` or the
 * phrase `release candidate`, two of them PDFs; and a page of another site. `newest` lists the
 * site's ids newest crawl first.
 */
export function listingCorpus(): { pages: PageDocument[]; newest: string[] } {
  // [id, days before FIXTURE_NOW, body, filetype]
  const site: [string, number, string, Filetype][] = [
    ['log-5', 50, 'Changelog entry five: faster start-up.', 'html'],
    ['log-2', 20, 'Changelog entry two: a draft of the upgrade guide.', 'html'],
    ['log-9', 90, 'Changelog entry nine: first public version.', 'pdf'],
    ['log-1', 10, 'Changelog entry one: bug fixes for the importer.', 'html'],
    ['log-7', 70, 'Changelog entry seven: draft notes on the schema.', 'pdf'],
    ['log-3', 30, 'Changelog entry three: the release candidate is out.', 'html'],
    ['log-8', 80, 'Changelog entry eight: smaller indexes.', 'html'],
    ['log-4', 40, 'Changelog entry four: new search operators.', 'pdf'],
    ['log-6', 60, 'Changelog entry six: a draft for review.', 'html'],
    ['log-0', 5, 'Changelog entry zero: translations.', 'html'],
  ];
  const pages = site.map(([id, days, body, filetype]) =>
    makePage(id, `https://${LISTING_SITE}/${id}${filetype === 'html' ? '' : `.${filetype}`}`, `Release ${id}`, body, {
      crawled_at: daysBefore(days),
      filetype,
    }),
  );
  pages.push(
    makePage('elsewhere', 'https://other.example.dev/log', 'Release elsewhere', 'Changelog entry, newest of all.', {
      crawled_at: daysBefore(1),
    }),
  );
  const newest = [...site].sort((a, b) => a[1] - b[1]).map(([id]) => id);
  return { pages, newest };
}
