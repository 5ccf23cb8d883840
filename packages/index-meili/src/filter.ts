/**
 * Meilisearch filter expressions built from validated values. Every string value is quoted with
 * {@link escapeFilterValue}, so no value (a host, a language, a title word) can close its quotes and
 * add a condition; numbers are checked to be safe integers before they are written.
 */
import {
  FILETYPE_FAMILY,
  FILETYPE_OPERATOR_VALUES,
  type FiletypeOperatorValue,
  normalizeLang,
  normalizeSite,
  ValidationError,
} from '@quarry/core';
import { FIELD } from './fields.js';

/**
 * Quotes a string as one Meilisearch filter value: double quotes around it, backslashes and double
 * quotes inside escaped with a backslash (Meilisearch 1.4+ unescapes both). Newlines and any other
 * character stay literal inside the quotes.
 *
 * @example escapeFilterValue('a" OR lang = "en') // '"a\\" OR lang = \\"en"'
 */
export function escapeFilterValue(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** `attribute = "value"`, the value quoted. */
export function equals(attribute: string, value: string): string {
  return `${attribute} = ${escapeFilterValue(value)}`;
}

/** `attribute != "value"`, the value quoted; also true for documents without the attribute. */
export function notEquals(attribute: string, value: string): string {
  return `${attribute} != ${escapeFilterValue(value)}`;
}

/** `attribute IN ["a", "b"]`, each value quoted. */
export function isIn(attribute: string, values: readonly string[]): string {
  return `${attribute} IN [${values.map(escapeFilterValue).join(', ')}]`;
}

/** Joins conditions with AND, each in parentheses; undefined when there is none. */
export function allOf(conditions: readonly string[]): string | undefined {
  if (conditions.length === 0) return undefined;
  if (conditions.length === 1) return conditions[0];
  return conditions.map((c) => `(${c})`).join(' AND ');
}

/** A host as the filter needs it, or a `ValidationError` naming `param`. */
export function validSite(site: string, param: string): string {
  const host = normalizeSite(site);
  if (host === null) throw new ValidationError(`${param} must be a host name such as example.com.`, param);
  return host;
}

/** A primary language subtag as the filter needs it, or a `ValidationError` naming `param`. */
export function validLang(lang: string, param: string): string {
  const normalized = normalizeLang(lang);
  if (normalized === null) throw new ValidationError(`${param} must be a language code such as en or zh.`, param);
  return normalized;
}

/**
 * The host or any of its subdomains (`site_hosts` holds every suffix of a document's host, so
 * `example.com` matches `docs.example.com` but never `badexample.com`).
 */
export function siteCondition(hosts: readonly string[]): string {
  return hosts.length === 1 ? equals(FIELD.siteHosts, hosts[0]!) : isIn(FIELD.siteHosts, hosts);
}

/** Stored file types of the requested families (`doc` → doc, docx). */
export function filetypeCondition(families: readonly FiletypeOperatorValue[]): string {
  const stored = new Set<string>();
  for (const family of families) {
    if (!FILETYPE_OPERATOR_VALUES.includes(family)) {
      throw new ValidationError('filetype: accepts pdf, doc, ppt or xls.', 'q');
    }
    for (const filetype of FILETYPE_FAMILY[family]) stored.add(filetype);
  }
  return isIn(FIELD.filetype, [...stored]);
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Crawled at or after an ISO time, compared in whole epoch seconds (the stored value is floored too). */
export function crawledAfterCondition(iso: string): string {
  // Date.parse accepts almost anything; the API hands over ISO 8601 times only.
  const ms = ISO_TIME.test(iso) ? Date.parse(iso) : Number.NaN;
  if (!Number.isFinite(ms)) throw new ValidationError('time_range gave an invalid start time.', 'time_range');
  const secs = Math.floor(ms / 1000);
  if (!Number.isSafeInteger(secs)) throw new ValidationError('time_range gave an invalid start time.', 'time_range');
  return `${FIELD.crawledAtSecs} >= ${secs}`;
}

/** Every token in the title (positive) or not all of them in the title (negative). */
export function titleWordsCondition(tokens: readonly string[], negated: boolean): string | undefined {
  const all = allOf([...new Set(tokens)].map((token) => equals(FIELD.titleWords, token)));
  if (all === undefined) return undefined;
  return negated ? `NOT (${all})` : all;
}
