import type { FtsNode } from './fts-query.js';

/**
 * The general plan's tree without the stems of languages that have no page in the index (`present`:
 * the stemmed languages whose pages it holds; see `FastSearch.languages`). Its boolean queries cannot
 * ask a form of some languages' pages only, so a language's stem is asked of every page: only while
 * pages of that language are there (an index of English pages is asked as before, and an excluded
 * word there removes no page holding another language's stem of it).
 */
export function forLanguages(node: FtsNode, present: ReadonlySet<string>): FtsNode {
  switch (node.kind) {
    case 'boost':
      return { ...node, positive: forLanguages(node.positive, present) };
    case 'bool': {
      // A word's forms are the alternatives of one boolean query: those left out are no longer among
      // the forms that weigh the others (see weighForms).
      const left = [...node.must, ...node.should, ...node.mustNot].filter((child) => !asked(child, present));
      const gone = new Set(left.flatMap((child) => (child.kind === 'match' ? [child.token] : [])));
      const kept = (nodes: readonly FtsNode[]) =>
        nodes.filter((child) => asked(child, present)).map((child) => withoutForms(forLanguages(child, present), gone));
      const bool = { ...node, must: kept(node.must), should: kept(node.should), mustNot: kept(node.mustNot) };
      // A word left with one form is that form, as it was planned before there were stems of languages.
      const alone = left.length > 0 && bool.must.length === 0 && bool.mustNot.length === 0 && bool.should.length === 1;
      return alone ? bool.should[0]! : bool;
    }
    default:
      return node;
  }
}

/** Whether a node is asked of an index holding pages of `present` languages. */
function asked(node: FtsNode, present: ReadonlySet<string>): boolean {
  if (node.kind !== 'match' && node.kind !== 'phrase') return true;
  return node.languages === undefined || node.languages.some((lang) => present.has(lang));
}

/** A match without the forms in `gone` among those that weigh it. */
function withoutForms(node: FtsNode, gone: ReadonlySet<string>): FtsNode {
  if (node.kind !== 'match' || !node.forms || gone.size === 0) return node;
  const { forms: all, ...rest } = node;
  const forms = all.filter((token) => !gone.has(token));
  return forms.length > 1 ? { ...rest, forms } : rest;
}
