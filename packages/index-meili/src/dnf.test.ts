import { describe, expect, it } from '@jest/globals';
import { type QueryNode, ValidationError } from '@quarry/core';
import { parseQuery } from '@quarry/query';
import { type Clause, type Conjunction, toDnf } from './dnf.js';

function show(clause: Clause): string {
  const text = clause.type === 'phrase' ? `"${clause.text}"` : clause.text;
  return clause.field === 'title' ? `intitle:${text}` : text;
}

/** A conjunction as readable text: `a b -c`. */
function render(conjunctions: readonly Conjunction[]): string[] {
  return conjunctions.map((c) => [...c.positives.map(show), ...c.negatives.map((n) => `-${show(n)}`)].join(' '));
}

function dnf(q: string, max = 16): string[] {
  return render(toDnf(parseQuery(q).root, max));
}

const term = (text: string): QueryNode => ({ type: 'term', text, field: 'any' });

describe('toDnf', () => {
  it('keeps a plain AND as one conjunction', () => {
    expect(dnf('solar cells')).toEqual(['solar cells']);
    expect(dnf('"solar cells" panel -roof')).toEqual(['"solar cells" panel -roof']);
  });

  it('matches everything for a filter-only query', () => {
    expect(toDnf(parseQuery('site:example.com').root, 16)).toEqual([{ positives: [], negatives: [] }]);
  });

  it('expands OR groups into one conjunction per alternative, in query order', () => {
    expect(dnf('cats OR dogs')).toEqual(['cats', 'dogs']);
    expect(dnf('pets cats OR dogs')).toEqual(['pets cats', 'pets dogs']);
    expect(dnf('a OR b c OR d -e')).toEqual(['a c -e', 'a d -e', 'b c -e', 'b d -e']);
    expect(dnf('intitle:report OR "annual review" 2024')).toEqual(['intitle:report 2024', '"annual review" 2024']);
  });

  it('accepts exactly the cap and rejects one expansion beyond it', () => {
    // 2^4 = 16 alternatives.
    expect(dnf('a OR b c OR d e OR f g OR h')).toHaveLength(16);
    expect(() => dnf('a OR b c OR d e OR f g OR h i OR j')).toThrow(ValidationError);
    expect(() => dnf('a OR b OR c', 2)).toThrow(/more than 2 alternatives/);
    // A word said again (kept by the parser as query term frequency) is no new alternative.
    expect(dnf('a OR b OR a OR b', 2)).toEqual(['a', 'b']);
    try {
      dnf('a OR b c OR d e OR f g OR h i OR j');
    } catch (error) {
      expect((error as ValidationError).param).toBe('q');
    }
  });

  it('rejects a huge product before building it', () => {
    const groups = Array.from({ length: 30 }, (_, i) => `a${i} OR b${i}`).join(' ');
    const started = performance.now();
    expect(() => dnf(groups)).toThrow(ValidationError);
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('pushes exclusions of compound nodes down (De Morgan)', () => {
    const notOr: QueryNode = {
      type: 'and',
      children: [term('a'), { type: 'not', child: { type: 'or', children: [term('b'), term('c')] } }],
    };
    expect(render(toDnf(notOr, 16))).toEqual(['a -b -c']);
    const notAnd: QueryNode = {
      type: 'and',
      children: [term('a'), { type: 'not', child: { type: 'and', children: [term('b'), term('c')] } }],
    };
    expect(render(toDnf(notAnd, 16))).toEqual(['a -b', 'a -c']);
    const doubleNot: QueryNode = {
      type: 'and',
      children: [term('a'), { type: 'not', child: { type: 'not', child: term('b') } }],
    };
    expect(render(toDnf(doubleNot, 16))).toEqual(['a b']);
  });

  it('drops duplicate clauses, duplicate conjunctions and contradictions', () => {
    const tree: QueryNode = {
      type: 'or',
      children: [
        { type: 'and', children: [term('a'), term('b'), term('a')] },
        { type: 'and', children: [term('b'), term('a')] },
        { type: 'and', children: [term('c'), { type: 'not', child: term('c') }] },
      ],
    };
    expect(render(toDnf(tree, 16))).toEqual(['a b']);
    expect(toDnf({ type: 'and', children: [term('x'), { type: 'not', child: term('x') }] }, 16)).toEqual([]);
  });

  it('keeps title and any-field clauses of the same text apart', () => {
    expect(dnf('intitle:solar solar')).toEqual(['intitle:solar solar']);
  });
});
