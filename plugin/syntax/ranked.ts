// `match=<text>` and `similar[<field>]=<text>` as written (docs/query-language.md, "Ranked search:
// match and similar"): the text is kept as sent; whether it yields a search term is the validate
// stage's question and, for words a language ignores, the database's.

import { malformed, type Collector, type ScopeBuilder } from './collector';

/** `match=postgres -mysql` -> the scope's match text. */
export function addMatch(c: Collector, scope: ScopeBuilder, key: string, value: string): void {
  c.clauses++;
  scope.match = { kind: 'match', parameter: key, text: value };
}

/** `similar[title]=postgers` -> one similarity test on `title`. */
export function addSimilar(c: Collector, scope: ScopeBuilder, key: string, argument: string, value: string): void {
  if (argument.includes(',')) return malformed(c, key, 'takes one field; give one `similar[...]` key per field');
  c.clauses++;
  scope.similar = [...(scope.similar ?? []), { kind: 'similar', parameter: key, field: argument, text: value }];
}
