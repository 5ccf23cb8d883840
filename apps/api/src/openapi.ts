import { MAX_SITE_INPUT_CHARS } from '@quarry/core';
import { PASSAGE_BOUNDS } from '@quarry/passages';
import { MAX_QUERY_LENGTH } from '@quarry/query';
import { CONTENT_FORMATS } from './content-route.js';
import { QUERY_OPERATORS_DOC, RESPONSE_SCHEMAS } from './openapi-schemas.js';
import { MATCH_VALUES, SEARCH_BOUNDS, TIME_RANGE_VALUES } from './params.js';
import { PROBLEM_MEDIA_TYPE } from './problem.js';

const problem = { [PROBLEM_MEDIA_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } };
const ref = (kind: 'headers' | 'responses' | 'parameters', name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Headers of every response that passed the limiter; the key headers only with a dedicated key. */
const limitedHeaders = (required: boolean) => ({
  RateLimit: { ...ref('headers', 'RateLimit'), required },
  'RateLimit-Policy': { ...ref('headers', 'RateLimit-Policy'), required },
  'X-RateLimit-Limit': ref('headers', 'X-RateLimit-Limit'),
  'X-RateLimit-Remaining': ref('headers', 'X-RateLimit-Remaining'),
  'X-RateLimit-Reset': ref('headers', 'X-RateLimit-Reset'),
});

const int = { type: 'integer' } as const;

/** Answers every rate-limited operation can give besides its success. */
const commonErrors = {
  '401': ref('responses', 'Unauthorized'),
  '405': ref('responses', 'MethodNotAllowed'),
  '429': ref('responses', 'TooManyRequests'),
  '431': ref('responses', 'HeadersTooLarge'),
  '500': ref('responses', 'InternalError'),
  '503': ref('responses', 'Unavailable'),
};

/**
 * The OpenAPI 3.1 document of the public API. The API tests validate every response they receive
 * against it, so it cannot drift from the code.
 */
export const OPENAPI_DOCUMENT = {
  openapi: '3.1.0',
  jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
  info: {
    title: 'Quarry search API',
    version: '1.0.0',
    description:
      'Web search with structured results and full page text, for AI applications. The endpoints are public ' +
      '(rate-limited per client IP; IPv6 clients grouped by /56). Operators provision dedicated API keys with ' +
      'their own per-minute limit; present one as `Authorization: Bearer <key>` or `X-API-Key: <key>`. An unknown ' +
      'or revoked key is refused with 401, never served as public. Errors are RFC 9457 problem details.',
  },
  servers: [{ url: '/' }],
  security: [{}, { bearerKey: [] }, { apiKeyHeader: [] }],
  paths: {
    '/api/v1/search': {
      get: {
        operationId: 'search',
        summary: 'Search the index',
        description:
          'Local results first. When fewer local results than `limit` exist for the requested page and a fallback ' +
          'is configured, the page is filled with external results (`source: "external"`, `id: ""`), deduplicated ' +
          'by normalized URL and ranked after the local ones. A question of 3 to 12 words searched with optional words ' +
          '(`match=any`, or relaxed to it) whose best local page holds too little of it keeps its best local results ' +
          '(a third of `limit`, rounded up), followed by the fallback results, unless the fallback has nothing.',
        parameters: [
          {
            name: 'q',
            in: 'query',
            required: true,
            description: QUERY_OPERATORS_DOC,
            schema: { type: 'string', minLength: 1, maxLength: MAX_QUERY_LENGTH },
          },
          {
            name: 'limit',
            in: 'query',
            description: 'Number of results to return (decimal digits only).',
            schema: { ...int, ...minMax(SEARCH_BOUNDS.limit) },
          },
          {
            name: 'offset',
            in: 'query',
            description: 'Pagination offset (decimal digits only).',
            schema: { ...int, ...minMax(SEARCH_BOUNDS.offset) },
          },
          {
            name: 'lang',
            in: 'query',
            description:
              'Hard language filter; a language code, reduced to its primary subtag in its two-letter form where one exists (`zh-CN` means `zh`, `eng` means `en`).',
            schema: { type: 'string', pattern: '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$' },
          },
          {
            name: 'time_range',
            in: 'query',
            description: 'Only pages crawled within this period before now (`crawled_at`); `all` means no limit.',
            schema: { type: 'string', enum: TIME_RANGE_VALUES },
          },
          {
            name: 'site',
            in: 'query',
            description:
              'Only this host and its subdomains; with a path (`example.com/docs`), only their pages under it (the first 5 segments, case-insensitive). ANDed with `site:` operators in `q`.',
            schema: { type: 'string', maxLength: MAX_SITE_INPUT_CHARS },
          },
          {
            name: 'lang_priority',
            in: 'query',
            description: 'Soft boost for a language (same form as `lang`); other languages are not hidden.',
            schema: { type: 'string', pattern: '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$' },
          },
          {
            name: 'match',
            in: 'query',
            description:
              '`all` (default): every word must occur; a question typed whole is searched as `any` instead, and ' +
              'the response carries `Quarry-Match: any`, when no page holds all its words and it has at least three ' +
              'plain words besides stop words, or when fewer than ten pages do (whatever `limit`) and it has four and reads ' +
              'as a sentence (a question mark or a function word such as `what`, `the`) or has five, or asks a question ' +
              'and has three (an explicit ' +
              '`match=all` never is); the pages its AND found then come first, then the others, unless it asks a ' +
              'question (a question mark, or a first word such as `how`, `what`, `does`). Whatever `match`, when ' +
              'fewer than ten pages hold a query of three plain words or more with its words in a row as typed, ' +
              'they come first. `any`: words are optional, the pages holding every word come first when fewer ' +
              'than ten do (but for a question), and pages matching more (and ' +
              'rarer) words rank first, and a page must hold one that is not a stop word (`what`, `is`, `the`) ' +
              'unless the query has no other; a word of several parts (`heat-transfer`) counts as its parts, each ' +
              'optional; phrases, exclusions and the `intitle:`, `site:` and `filetype:` ' +
              'operators stay hard constraints.',
            schema: { type: 'string', enum: [...MATCH_VALUES], default: 'all' },
          },
        ],
        responses: {
          '200': {
            description: 'Search results.',
            headers: {
              ...limitedHeaders(true),
              'Quarry-Match': ref('headers', 'Quarry-Match'),
              'Quarry-Total': ref('headers', 'Quarry-Total'),
              'Quarry-Corrected-Words': ref('headers', 'Quarry-Corrected-Words'),
            },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/SearchResponse' } } },
          },
          '400': ref('responses', 'BadRequest'),
          ...commonErrors,
        },
      },
    },
    '/api/v1/content/{id}': {
      get: {
        operationId: 'getContent',
        summary: 'Full text of an indexed page',
        description: 'Only ids of local results have content; an external result (`id: ""`) has none.',
        parameters: [
          {
            name: 'id',
            in: 'path',
            required: true,
            description: 'The `id` of a local search result.',
            schema: { type: 'string', minLength: 1 },
          },
          {
            name: 'format',
            in: 'query',
            description: 'Beyond the spec, opt-in. `markdown` adds `body_markdown`; `text` (default) adds nothing.',
            schema: { type: 'string', enum: [...CONTENT_FORMATS], default: 'text' },
          },
          {
            name: 'query',
            in: 'query',
            description:
              'Beyond the spec, opt-in: adds `passages`, the parts of the page most relevant to this query that fit ' +
              '`max_tokens` together, in page order, with their offsets in `body_text`.',
            schema: { type: 'string', minLength: 1, maxLength: MAX_QUERY_LENGTH },
          },
          {
            name: 'max_tokens',
            in: 'query',
            description:
              'Beyond the spec, opt-in. With `query`: the token budget of `passages` (o200k_base tokens of the passage ' +
              'texts together). Without `query`: read the page in portions; the response is a `ContentPortion`, whose ' +
              '`body_text` (or `body_markdown` with `format=markdown`) holds only the part from `start` that fits this ' +
              'many tokens, ending at a paragraph or sentence end.',
            schema: {
              ...int,
              minimum: PASSAGE_BOUNDS.minTokens,
              maximum: PASSAGE_BOUNDS.maxTokens,
              default: PASSAGE_BOUNDS.defaultTokens,
            },
          },
          {
            name: 'start',
            in: 'query',
            description:
              'Beyond the spec, opt-in, only without `query`: the character offset (UTF-16 code units) in the page, ' +
              'in the format asked, to read a portion from (see `max_tokens`); give the `portion.end` of the portion ' +
              'before to read on. Past the end of the page it is a 400 naming its length.',
            schema: { ...int, minimum: 0, default: 0 },
          },
        ],
        responses: {
          '200': {
            description: 'The page text and citation metadata.',
            headers: limitedHeaders(true),
            content: {
              'application/json': {
                schema: {
                  oneOf: [
                    { $ref: '#/components/schemas/ContentResponse' },
                    { $ref: '#/components/schemas/ContentPortion' },
                  ],
                },
              },
            },
          },
          '400': ref('responses', 'BadRequest'),
          '404': ref('responses', 'NotFound'),
          ...commonErrors,
        },
      },
    },
    '/api/v1/openapi.json': {
      get: {
        operationId: 'getOpenApi',
        summary: 'This document',
        responses: {
          '200': {
            description: 'OpenAPI 3.1 document.',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          ...commonErrors,
        },
      },
    },
    '/healthz': {
      get: {
        operationId: 'health',
        summary: 'Liveness, and reachability of the index and Redis when used (not rate-limited)',
        security: [{}],
        responses: {
          '200': {
            description: 'The index answers, and Redis too where it holds the rate-limit counters and keys.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Health' } } },
          },
          '405': ref('responses', 'MethodNotAllowed'),
          '503': ref('responses', 'Unavailable'),
        },
      },
    },
  },
  components: {
    schemas: RESPONSE_SCHEMAS,
    securitySchemes: {
      bearerKey: {
        type: 'http',
        scheme: 'bearer',
        description: 'Optional dedicated API key. Without one, the public per-IP tier applies.',
      },
      apiKeyHeader: {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
        description: 'The same optional key, in its own header.',
      },
    },
    headers: {
      RateLimit: {
        description:
          'IETF draft-ietf-httpapi-ratelimit-headers-08: `"<policy>"; r=<remaining>; t=<seconds until reset>`. ' +
          'Policy `public` for the per-IP tier, `key` for a dedicated key.',
        schema: { type: 'string' },
      },
      'RateLimit-Policy': {
        description: 'Draft-08 policy: `"<policy>"; q=<requests>; w=<window in seconds>; pk=<partition key>`.',
        schema: { type: 'string' },
      },
      'Retry-After': {
        description: 'Seconds to wait before retrying.',
        required: true,
        schema: { ...int, minimum: 0 },
      },
      'X-RateLimit-Limit': {
        description: 'Dedicated keys only: requests allowed per minute for this key.',
        schema: { ...int, minimum: 1 },
      },
      'X-RateLimit-Remaining': {
        description: 'Dedicated keys only: requests left in the current one-minute window.',
        schema: { ...int, minimum: 0 },
      },
      'X-RateLimit-Reset': {
        description:
          'Dedicated keys only: SECONDS UNTIL the current window resets (a duration, not an epoch timestamp).',
        schema: { ...int, minimum: 0 },
      },
      'Quarry-Match': {
        description:
          '`any` when the query was searched with its words optional because no page, or fewer than ten, ' +
          'holds all of them (the default `match`; see the `match` parameter); absent otherwise.',
        schema: { type: 'string', enum: ['any'] },
      },
      'Quarry-Total': {
        description:
          '`estimate` when `total` is an estimate: more pages match than the index counts exactly (the ' +
          'embedded index: 1,091, one more than the deepest page reaches); absent when `total` is exact.',
        schema: { type: 'string', enum: ['estimate'] },
      },
      'Quarry-Corrected-Words': {
        description:
          'Words of the query that no page holds and that were searched in the spelling one letter away ' +
          '(a letter added, left out, changed, or two swapped) that most pages hold, as `typed=searched` ' +
          'pairs separated by `, ` (`travle=travel`); absent when the query was searched as typed. Only a ' +
          'search that found fewer than ten pages, or whose words were optional, is corrected; words of ' +
          'five letters or more, Latin letters only, outside quotes and operators (quote a word to search ' +
          'it as typed).',
        schema: { type: 'string', pattern: '^[a-z]+=[a-z]+(, [a-z]+=[a-z]+)*$' },
      },
      Allow: { description: 'Methods this resource supports.', required: true, schema: { type: 'string' } },
      'WWW-Authenticate': { description: 'The Bearer challenge.', required: true, schema: { type: 'string' } },
    },
    responses: {
      BadRequest: {
        description:
          'A parameter is missing, repeated, bracketed (`q[]`, `offset[$gt]`), malformed or out of range; `param` names it.',
        content: problem,
      },
      Unauthorized: {
        description: 'A presented API key is unknown, revoked or malformed (or keys are not enabled).',
        headers: { 'WWW-Authenticate': ref('headers', 'WWW-Authenticate') },
        content: problem,
      },
      NotFound: { description: 'Unknown page id (or unknown route).', content: problem },
      MethodNotAllowed: {
        description: 'The resource exists but only answers GET and HEAD.',
        headers: { Allow: ref('headers', 'Allow') },
        content: problem,
      },
      TooManyRequests: {
        description: 'Rate limit exceeded. Wait `Retry-After` seconds; do not retry in a tight loop.',
        headers: { 'Retry-After': ref('headers', 'Retry-After'), ...limitedHeaders(true) },
        content: problem,
      },
      HeadersTooLarge: {
        description: "The URL and headers exceed the server's size limit (52 KiB).",
        content: problem,
      },
      InternalError: { description: 'Unexpected error; details are only in the server log.', content: problem },
      Unavailable: {
        description: 'A backend (index, blob store, rate-limit store) is unavailable; retry after `Retry-After`.',
        headers: { 'Retry-After': ref('headers', 'Retry-After') },
        content: problem,
      },
    },
  },
} as const;

function minMax(bounds: { min: number; max: number; default: number }) {
  return { minimum: bounds.min, maximum: bounds.max, default: bounds.default };
}
