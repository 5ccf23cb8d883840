/**
 * Disjunctive normal form of a query tree. Meilisearch's `q` has AND (matchingStrategy `all`),
 * phrases and exclusions but no OR, so `a (b OR c)` becomes the conjunctions `a b` and `a c`, each
 * one query of a federated multi-search.
 */
import { type PhraseNode, type QueryNode, type TermNode, ValidationError } from '@quarry/core';

/** A term or phrase, with the field it must occur in. */
export type Clause = TermNode | PhraseNode;

/** Clauses that must all match and clauses none of which may match. */
export interface Conjunction {
  readonly positives: readonly Clause[];
  readonly negatives: readonly Clause[];
}

const EMPTY: Conjunction = { positives: [], negatives: [] };

function clauseKey(clause: Clause): string {
  return `${clause.type}\u0000${clause.field}\u0000${clause.text}`;
}

function merge(a: Conjunction, b: Conjunction): Conjunction {
  return { positives: [...a.positives, ...b.positives], negatives: [...a.negatives, ...b.negatives] };
}

function tooMany(maxBranches: number): ValidationError {
  return new ValidationError(
    `q expands to more than ${maxBranches} alternatives (each OR multiplies them); use fewer OR terms.`,
    'q',
  );
}

/**
 * Expands a tree (`null`: match everything) to at most `maxBranches` conjunctions, in query order,
 * without duplicate clauses or duplicate conjunctions. Exclusions of compound nodes are pushed down
 * first (`-(a OR b)` is `-a -b`), so any tree works, not only the parser's shapes.
 * Throws a `ValidationError` (param `q`) when the expansion would exceed `maxBranches`; the size is
 * checked before each product is built, so a pathological tree costs no more than the cap.
 *
 * @example toDnf(parseQuery('a b OR c').root, 16) // [{positives: [a, b]}, {positives: [a, c]}]
 */
export function toDnf(root: QueryNode | null, maxBranches: number): Conjunction[] {
  if (root === null) return [EMPTY];
  return dedupe(expand(root, false, maxBranches));
}

function expand(node: QueryNode, negated: boolean, maxBranches: number): Conjunction[] {
  switch (node.type) {
    case 'term':
    case 'phrase':
      return [negated ? { positives: [], negatives: [node] } : { positives: [node], negatives: [] }];
    case 'not':
      return expand(node.child, !negated, maxBranches);
    case 'and':
    case 'or': {
      // De Morgan: a negated AND is an OR of negations, a negated OR an AND of them.
      const conjunctive = (node.type === 'and') !== negated;
      const parts = node.children.map((child) => expand(child, negated, maxBranches));
      if (!conjunctive) {
        // Deduplicated before it is counted: a word said twice (`a OR b OR a`) is one alternative.
        const union = dedupe(parts.flat());
        if (union.length > maxBranches) throw tooMany(maxBranches);
        return union;
      }
      let product: Conjunction[] = [EMPTY];
      for (const part of parts) {
        if (product.length * part.length > maxBranches) throw tooMany(maxBranches);
        product = product.flatMap((left) => part.map((right) => merge(left, right)));
      }
      return product;
    }
  }
}

function uniqueClauses(clauses: readonly Clause[]): Clause[] {
  const seen = new Set<string>();
  return clauses.filter((clause) => {
    const key = clauseKey(clause);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function dedupe(conjunctions: readonly Conjunction[]): Conjunction[] {
  const seen = new Set<string>();
  const out: Conjunction[] = [];
  for (const conjunction of conjunctions) {
    const positives = uniqueClauses(conjunction.positives);
    const negatives = uniqueClauses(conjunction.negatives);
    const negativeKeys = new Set(negatives.map(clauseKey));
    // `a -a` can match nothing: dropping it keeps Meilisearch from being asked a contradiction.
    if (positives.some((clause) => negativeKeys.has(clauseKey(clause)))) continue;
    const key = [positives.map(clauseKey).sort().join('\u0001'), [...negativeKeys].sort().join('\u0001')].join(
      '\u0002',
    );
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ positives, negatives });
  }
  return out;
}
