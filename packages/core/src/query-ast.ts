import type { FiletypeOperatorValue } from './types.js';

/**
 * The syntax tree of a search query (`q`), produced by `@quarry/query` and translated by each index
 * backend. Text is kept as the user wrote it (trimmed); each backend tokenizes it its own way
 * (the SQLite backend with `@quarry/text`, Meilisearch with its own tokenizer).
 */
export type QueryNode = TermNode | PhraseNode | AndNode | OrNode | NotNode;

/** Where a term or phrase must occur: anywhere (title, body, site name) or in the title only. */
export type QueryField = 'any' | 'title';

/** One bare word as typed: `cats`, `re:invent`, `搜索引擎`. */
export interface TermNode {
  readonly type: 'term';
  readonly text: string;
  readonly field: QueryField;
}

/** A quoted phrase: its words must appear next to each other in order. */
export interface PhraseNode {
  readonly type: 'phrase';
  readonly text: string;
  readonly field: QueryField;
}

/** Every child must match. */
export interface AndNode {
  readonly type: 'and';
  readonly children: readonly QueryNode[];
}

/** At least one child must match. */
export interface OrNode {
  readonly type: 'or';
  readonly children: readonly QueryNode[];
}

/** Excludes documents matching the child. Only ever appears as a child of `and` (or as the root's
 * only content, which the parser rejects as an exclusion-only query). */
export interface NotNode {
  readonly type: 'not';
  readonly child: QueryNode;
}

/** The parsed form of `q`: the text query plus the filter operators pulled out of it. */
export interface ParsedQuery {
  /** Null when `q` held only filter operators (`site:x.org`); the query then matches every page
   * that passes the filters. */
  readonly root: QueryNode | null;
  /** Hosts from `site:` operators, lower case; ORed with each other (host or any subdomain). */
  readonly sites: readonly string[];
  /** Values of `filetype:` operators; ORed with each other. */
  readonly filetypes: readonly FiletypeOperatorValue[];
}
