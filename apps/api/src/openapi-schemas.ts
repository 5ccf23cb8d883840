import { FILETYPE_OPERATOR_VALUES } from '@quarry/core';
import { MAX_QUERY_CLAUSES, MAX_QUERY_WORDS } from '@quarry/query';

/** The page's fields of the content response (spec 2.3), shared by its portion (ContentPortion). */
const PAGE_FIELDS = {
  id: { type: 'string', description: 'Page id.' },
  url: { type: 'string', description: 'URL of the page.' },
  title: { type: 'string', description: 'Page title.' },
  body_text: { type: 'string', description: 'Full extracted text.' },
  author: { type: ['string', 'null'], description: 'Author when known, else null.' },
  published_at: {
    type: ['string', 'null'],
    format: 'date-time',
    description: 'Publication time (ISO 8601 UTC) when known, else null.',
  },
  lang: { type: 'string', description: 'Primary language subtag; `und` when unknown.' },
  word_count: { type: 'integer', minimum: 0, description: 'Words in `body_text`.' },
  crawled_at: { type: 'string', format: 'date-time', description: 'Crawl time (ISO 8601 UTC).' },
  has_llms_txt: { type: 'boolean', description: 'Whether the site serves a real /llms.txt.' },
} as const;

/** JSON Schemas (draft 2020-12) of the response bodies, exactly the spec's fields (2.1 to 2.3). */
export const RESPONSE_SCHEMAS = {
  SearchResult: {
    type: 'object',
    description: 'One search result (spec 2.2).',
    additionalProperties: false,
    required: [
      'id',
      'url',
      'title',
      'snippet',
      'domain',
      'lang',
      'score',
      'source',
      'has_llms_txt',
      'published_at',
      'crawled_at',
    ],
    properties: {
      id: {
        type: 'string',
        description: 'Page id for local results (use it with the content endpoint); empty for external results.',
      },
      url: { type: 'string', description: 'URL of the page.' },
      title: { type: 'string', description: 'Page title.' },
      snippet: { type: 'string', description: 'Plain-text excerpt, around the query terms when they occur.' },
      domain: { type: 'string', description: 'Host of the page.' },
      site_name: {
        type: 'string',
        description: 'Display name of the site; omitted when unknown (fall back to `domain`).',
      },
      lang: { type: 'string', description: 'Primary language subtag (`en`, `zh`); `und` when unknown.' },
      score: {
        type: 'number',
        exclusiveMinimum: 0,
        description: 'Relevance, higher is better; comparable within one response only.',
      },
      source: {
        type: 'string',
        enum: ['local', 'external'],
        description: "`local`: this service's index; `external`: the web fallback.",
      },
      has_llms_txt: { type: 'boolean', description: 'Whether the site serves a real /llms.txt.' },
      published_at: {
        type: ['string', 'null'],
        format: 'date-time',
        description: 'Publication time (ISO 8601 UTC) when known, else null.',
      },
      crawled_at: {
        type: 'string',
        format: 'date-time',
        description: 'Crawl time (ISO 8601 UTC); `time_range` filters on it.',
      },
    },
  },
  SearchResponse: {
    type: 'object',
    description: 'Search response (spec 2.1).',
    additionalProperties: false,
    required: ['total', 'took_ms', 'results'],
    properties: {
      total: {
        type: 'integer',
        minimum: 0,
        description:
          'Local matches for the query; on a page topped up from the external fallback, plus the new URLs of its answer (the same on every such page).',
      },
      took_ms: { type: 'integer', minimum: 0, description: 'Processing time in milliseconds.' },
      results: {
        type: 'array',
        maxItems: 100,
        description: 'At most `limit` results: local ones first, then external ones.',
        items: { $ref: '#/components/schemas/SearchResult' },
      },
    },
  },
  ContentResponse: {
    type: 'object',
    description: 'Full text of an indexed page (spec 2.3); only fields useful for RAG.',
    additionalProperties: false,
    required: [
      'id',
      'url',
      'title',
      'body_text',
      'author',
      'published_at',
      'lang',
      'word_count',
      'crawled_at',
      'has_llms_txt',
    ],
    properties: {
      ...PAGE_FIELDS,
      body_markdown: {
        type: 'string',
        description: 'Only with `format=markdown`: the main content as markdown (from the text when none was kept).',
      },
      passages: {
        type: 'array',
        description: 'Only with `query`: the most relevant passages within `max_tokens`, in page order.',
        items: { $ref: '#/components/schemas/Passage' },
      },
    },
  },
  ContentPortion: {
    type: 'object',
    description:
      'Beyond the spec: a portion of the page, answered to `max_tokens` or `start` without `query`. The fields ' +
      'of ContentResponse, but that the format read holds only the portion: `body_text`, or with ' +
      '`format=markdown` `body_markdown` (and no `body_text`). The portions read from `start=0` on, each from the ' +
      "`portion.end` of the one before, put together make up the page's text exactly.",
    additionalProperties: false,
    required: [
      'id',
      'url',
      'title',
      'author',
      'published_at',
      'lang',
      'word_count',
      'crawled_at',
      'has_llms_txt',
      'portion',
    ],
    oneOf: [
      { required: ['body_text'], properties: { body_text: { type: 'string' } } },
      { required: ['body_markdown'], properties: { body_markdown: { type: 'string' } } },
    ],
    properties: {
      ...PAGE_FIELDS,
      body_text: { type: 'string', description: 'The portion of the plain text.' },
      body_markdown: { type: 'string', description: 'With `format=markdown`: the portion of the markdown.' },
      word_count: { type: 'integer', minimum: 0, description: 'Words in the whole page, as in ContentResponse.' },
      portion: {
        type: 'object',
        additionalProperties: false,
        required: ['start', 'end', 'length', 'tokens'],
        properties: {
          start: { type: 'integer', minimum: 0, description: 'Offset of the portion in the whole page.' },
          end: {
            type: 'integer',
            minimum: 0,
            description: 'Offset just past the portion: the `start` to read on from; equals `length` at the end.',
          },
          length: { type: 'integer', minimum: 0, description: 'Characters of the whole page in the format read.' },
          tokens: { type: 'integer', minimum: 0, description: 'Tokens of the portion (o200k_base).' },
        },
      },
    },
  },
  Passage: {
    type: 'object',
    description: 'A part of the page; `body_text.slice(start, end)` equals `text`. Never cuts a sentence.',
    additionalProperties: false,
    required: ['text', 'start', 'end', 'score', 'heading_path'],
    properties: {
      text: { type: 'string' },
      start: { type: 'integer', minimum: 0, description: 'Offset in `body_text` (UTF-16 code units).' },
      end: { type: 'integer', minimum: 0, description: 'Offset just past the passage.' },
      score: { type: 'number', minimum: 0, description: "BM25 among the page's passages; 0: no query word." },
      heading_path: { type: 'array', items: { type: 'string' }, description: 'Headings above it, outermost first.' },
    },
  },
  Health: {
    type: 'object',
    additionalProperties: false,
    required: ['status'],
    properties: { status: { const: 'ok' } },
  },
  Problem: {
    type: 'object',
    description: "RFC 9457 problem details. `type` is a reference to the problem's entry on /docs.",
    additionalProperties: false,
    required: ['type', 'title', 'status', 'detail'],
    properties: {
      type: { type: 'string', format: 'uri-reference' },
      title: { type: 'string' },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { type: 'string', description: 'What went wrong and what to do; never internals.' },
      param: { type: 'string', description: 'The parameter at fault (400 only).' },
    },
  },
} as const;

/** Markdown for the description of `q`: the operators of spec 4.1.1 as this service reads them. */
export const QUERY_OPERATORS_DOC = [
  'Search query. Words are ANDed. Operators:',
  '`site:<domain>` (host and subdomains; `site:<domain>/<path>` only the pages under that path; several are ORed),',
  '`intitle:<word>` or `intitle:"<phrase>"`,',
  '`"<exact phrase>"`, `-<word>` / `-"<phrase>"` (exclude),',
  '`A OR B` (upper case; binds tighter than AND; either side may be any word, a stop word too; a word of several parts such as `e-mail` is its parts, any of them),',
  `\`filetype:<type>\` with ${FILETYPE_OPERATOR_VALUES.join(', ')} (doc also matches docx and odt, ppt pptx and odp, xls xlsx and ods).`,
  'A query of operators only is valid; one of exclusions only is a 400.',
  `At most ${MAX_QUERY_WORDS} distinct words, or ${MAX_QUERY_CLAUSES} words and phrases in a query with phrases, intitle:, exclusions or OR groups beside other words (past ${MAX_QUERY_CLAUSES}, a query whose only operators are quotes is read as its words); a word said again counts once and weighs more.`,
  'Chinese, Japanese and Thai runs are searched as their words (quote a run to require it as typed).',
  'One http(s) URL alone finds that page when it is indexed (either scheme) and within the filters.',
].join(' ');
