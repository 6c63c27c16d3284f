// The reference's reading of docs/errors.md, "FIELD_NOT_ALLOWED": every field a request names must be in
// the list of the modifier naming it, in the scope that names it (the root with its dot paths and
// counts, or an alias's relation). A name outside that list, whether it does not exist or the model's
// own JSON removes or masks it, is FIELD_NOT_ALLOWED with that list as `allowed` and the same words
// (docs/errors.md, "FIELD_NOT_ALLOWED"). Shares no code with plugin/.

import type { CollectionSpec, RelationSpec, ScopeSpec } from './model';
import type { ClauseSpec, ExpandSpec, QuerySpec, ScopeQuery } from './query';

export interface ExpectedRefusal {
  readonly parameter: string;
  readonly detail: string;
  readonly allowed: readonly string[];
}

type List = 'projectable' | 'sortable' | 'searchable' | 'filterable';

const WORDS: Readonly<Record<List, string>> = {
  projectable: 'returned',
  sortable: 'sorted on',
  searchable: 'searched',
  filterable: 'filtered on',
};

function listOf(scope: ScopeSpec, list: List): readonly string[] {
  return list === 'projectable' ? scope.fields.map((f) => f.name) : scope[list];
}

/** Where names are checked: a scope, its label, and at the root its relations and the request's counts. */
interface Place {
  readonly scope: ScopeSpec;
  readonly label: string;
  readonly alias: string;
  readonly relations?: readonly RelationSpec[];
  readonly counts: readonly string[];
}

function ownField(place: Place, list: List, name: string, parameter: string, out: ExpectedRefusal[]): void {
  const counted = list === 'filterable' || list === 'sortable' ? place.counts.map((c) => `${c}_count`) : [];
  const allowed = [...listOf(place.scope, list), ...counted];
  if (allowed.includes(name)) return;
  const none = allowed.length === 0 ? '; no field can' : '';
  out.push({ parameter, detail: `\`${parameter}\`: "${name}" cannot be ${WORDS[list]} in ${place.label}${none}`, allowed });
}

/**
 * A dot path (docs/query-language.md, "Relations in conditions"; sort only through to-one
 * relations, docs/query-language.md, "Sorting by a related record").
 */
function dotPath(
  place: Place,
  relations: readonly RelationSpec[],
  list: List,
  name: string,
  parameter: string,
  out: ExpectedRefusal[],
): void {
  const dot = name.indexOf('.');
  const relation = relations.find((r) => r.name === name.slice(0, dot));
  const reaches = (r: RelationSpec): boolean => list !== 'sortable' || r.cardinality === 'one';
  const field = name.slice(dot + 1);
  if (relation !== undefined && reaches(relation) && listOf(relation.scope, list).includes(field)) return;
  const named = relation === undefined ? relations : [relation];
  const allowed = named.flatMap((r) => (reaches(r) ? listOf(r.scope, list).map((f) => `${r.name}.${f}`) : []));
  const label = relation === undefined ? place.label : `${place.label}.${relation.name}`;
  const none = allowed.length === 0 ? '; no related field can' : '';
  out.push({ parameter, detail: `\`${parameter}\`: "${name}" cannot be ${WORDS[list]} in ${label}${none}`, allowed });
}

function field(place: Place, list: List, name: string, parameter: string, out: ExpectedRefusal[]): void {
  if (place.relations !== undefined && name.includes('.')) dotPath(place, place.relations, list, name, parameter, out);
  else ownField(place, list, name, parameter, out);
}

const clauseKey = (clause: ClauseSpec, alias: string): string =>
  `${alias}${clause.family}[${clause.prefix === null ? '' : `${clause.prefix} `}${clause.field}]`;

function checkScope(place: Place, query: ScopeQuery, out: ExpectedRefusal[]): void {
  const { alias } = place;
  for (const family of ['filter', 'in', 'between'] as const) {
    for (const clause of query.clauses.filter((c) => c.family === family)) {
      field(place, 'filterable', clause.field, clauseKey(clause, alias), out);
    }
  }
  for (const search of query.searches) {
    for (const name of search.fields) field(place, 'searchable', name, `${alias}search[${search.fields.join(',')}]`, out);
  }
  for (const sort of query.sorts) field(place, 'sortable', sort.field, `${alias}sort[${sort.field}]`, out);
  const projection = query.projection;
  if (projection !== null) for (const name of projection.list) ownField(place, 'projectable', name, `${alias}${projection.kind}`, out);
}

function checkExpands(expands: readonly ExpandSpec[], relations: readonly RelationSpec[], label: string, out: ExpectedRefusal[]): void {
  for (const expand of expands) {
    const relation = relations.find((r) => r.name === expand.relation);
    if (relation === undefined || expand.alias === null) continue;
    const place = { scope: relation.scope, label: `${label}.${relation.name}`, alias: `${expand.alias}_`, counts: [] };
    checkScope(place, expand.scope, out);
    checkExpands(expand.expands, relation.relations, place.label, out);
  }
}

/** Every FIELD_NOT_ALLOWED problem `spec` has; none for the requests the generator makes valid. */
export function refusals(spec: QuerySpec, collection: CollectionSpec): ExpectedRefusal[] {
  const out: ExpectedRefusal[] = [];
  const counts = spec.counts.map((c) => c.relation);
  checkScope({ scope: collection, label: collection.name, alias: '', relations: collection.relations, counts }, spec.root, out);
  checkExpands(spec.expands, collection.relations, collection.name, out);
  for (const condition of [...spec.has, ...spec.counts]) {
    const relation = collection.relations.find((r) => r.name === condition.relation);
    if (relation === undefined || condition.alias === null || condition.shared) continue;
    const place = { scope: relation.scope, label: `${collection.name}.${relation.name}`, alias: `${condition.alias}_`, counts: [] };
    checkScope(place, condition.scope, out);
  }
  // Facets and stats name filterable root fields (docs/query-language.md, Facets and stats).
  const named = [
    ...(spec.summary?.facets ?? []).map((f) => ['facet', f.field] as const),
    ...(spec.summary?.stats ?? []).map((f) => ['stats', f] as const),
  ];
  for (const [modifier, name] of named) {
    if (collection.filterable.includes(name)) continue;
    const parameter = `${modifier}[${name}]`;
    const none = collection.filterable.length === 0 ? '; no field can' : '';
    out.push({
      parameter,
      detail: `\`${parameter}\`: "${name}" cannot be counted or summarised in ${collection.name}${none}`,
      allowed: collection.filterable,
    });
  }
  return out;
}
