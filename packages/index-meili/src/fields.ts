/**
 * The Meilisearch document schema and the index settings Quarry applies. One place names every
 * attribute, so the document builder, the settings and the query translation cannot drift apart.
 */
import { ENGLISH_STOP_WORDS } from '@quarry/text';
import type { Settings } from 'meilisearch';

/** Language-specific attribute suffixes: Meilisearch's `localizedAttributes` select by name pattern. */
export type LocaleSuffix = '' | '_zh' | '_ja';

/** The suffix under which a document of language `lang` stores its title and body. */
export function localeSuffix(lang: string): LocaleSuffix {
  if (lang === 'zh') return '_zh';
  if (lang === 'ja') return '_ja';
  return '';
}

const SUFFIXES: readonly LocaleSuffix[] = ['', '_zh', '_ja'];

/** Every title attribute (one per locale suffix); a document fills exactly one of them. */
export const TITLE_FIELDS: readonly string[] = SUFFIXES.map((s) => `title${s}`);
/** Every body attribute (one per locale suffix); a document fills exactly one of them. */
export const BODY_FIELDS: readonly string[] = SUFFIXES.map((s) => `body${s}`);

/** Filterable attribute names, used by the filter builders. */
export const FIELD = {
  siteHosts: 'site_hosts',
  titleWords: 'title_words',
  lang: 'lang',
  filetype: 'filetype',
  crawledAtSecs: 'crawled_at_secs',
  publishedAtSecs: 'published_at_secs',
} as const;

/** What a search retrieves: everything a hit needs except the (long) bodies, which come cropped. */
export const RETRIEVED_FIELDS: readonly string[] = [
  'id',
  'url',
  ...TITLE_FIELDS,
  'lead',
  'domain',
  'site_name',
  'lang',
  'filetype',
  'crawled_at',
  'published_at',
  'has_llms_txt',
  'simhash',
];

/**
 * The index settings (Meilisearch v1.12 or later). Titles rank above the site name, which ranks
 * above bodies; Chinese and Japanese attributes are tokenized with their own segmenters; prefix
 * search is off because queries are complete words, not keystrokes.
 */
export function indexSettings(options: { searchCutoffMs: number; maxTotalHits: number }): Settings {
  return {
    searchableAttributes: [...TITLE_FIELDS, 'site_name', ...BODY_FIELDS],
    filterableAttributes: Object.values(FIELD),
    sortableAttributes: [FIELD.crawledAtSecs, FIELD.publishedAtSecs],
    // Newest first among equally relevant pages, and for filter-only (placeholder) searches.
    rankingRules: ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness', `${FIELD.crawledAtSecs}:desc`],
    localizedAttributes: [
      { attributePatterns: ['*_zh'], locales: ['cmn'] },
      { attributePatterns: ['*_ja'], locales: ['jpn'] },
    ],
    // The same list the SQLite backend uses, so both skip the same words in an AND.
    stopWords: [...ENGLISH_STOP_WORDS],
    searchCutoffMs: options.searchCutoffMs,
    pagination: { maxTotalHits: options.maxTotalHits },
    prefixSearch: 'disabled',
    // Every word must occur as written (the spec's AND, and the SQLite backend's): `sevan` matched
    // pages saying `seven`. The API corrects a word no page holds, whatever the backend.
    typoTolerance: { enabled: false },
  };
}
