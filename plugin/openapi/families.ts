// Every query parameter of `GET <prefix>/<collection>`: `fields`, `fields!`, one `deepObject`
// parameter per bracketed family with the collection's own keys and its relations' keys, `total`
// and the shared paging parameters.

import type { ResolvedOptions } from '../options';
import type { CollectionCatalog } from '../schema';
import {
  betweenKey,
  column,
  family,
  fieldsParameters,
  filterKey,
  inKey,
  keyPattern,
  pagingReferences,
  clauseKeys,
  searchKey,
  sortKey,
  type KeyEntry,
  type Parameter,
} from './parameters';
import {
  aliasModifiers,
  conditionModifiers,
  countField,
  countKey,
  expandKey,
  hasKey,
  hasNotKey,
  relationKeys,
  type RelationKeys,
} from './relation-parameters';
import { summaryParameters } from './summaries';
import { totalParameter } from './totals';
import { isRanged } from './value-forms';
import { rankedParameters, rankFields, rankSortKeys } from './ranked';

const logicalWords =
  'Prefix a key with a logical word and one space (`+` or `%20` in a URL) to join its clause to the clauses before it: ' +
  "`and`, `or`, `and!` (AND NOT), `or!` (OR NOT), any case, e.g. `FAMILY[or KEY]` (the schema's `propertyNames` takes the prefixed keys; their values are written as the unprefixed key's). " +
  'Repeat a key to add clauses; clauses of one family group in query-string order with NOT before AND before OR.';

const dotWords = 'A key `<relation>.<field>` tests the related records (at least one satisfies the clause).';

function countWords(counts: readonly string[]): string {
  return counts.length === 0
    ? ''
    : ` ${counts.map((c) => `\`${c}\``).join(', ')} may be used with the matching \`count[...]\` in the same request.`;
}

/** `filter`, `in`, `between`: the own and dot-path keys, and the count fields, each with or without a logical prefix. */
function conditionFamily(name: string, what: string, entries: readonly KeyEntry[], counts: readonly string[]): Parameter | undefined {
  const example = entries[0]?.key ?? '';
  return family(
    name,
    `${what} One key per field (\`${name}[${example}]\`). ${dotWords} ${logicalWords.replace('FAMILY[or KEY]', `${name}[or ${example}]`)}${countWords(counts)}`,
    entries,
    clauseKeys([...entries.map((e) => e.key), ...counts]),
  );
}

function searchFamily(own: readonly string[], related: readonly KeyEntry[]): Parameter | undefined {
  const entries = [...own.map((field) => searchKey([field])), ...related];
  const one = keyPattern(entries.map((e) => e.key));
  return family(
    'search',
    'Case-insensitive search `search[<field>]=term`. Several fields may be listed in one key, comma-separated ' +
      '(`search[name,email]`: any of them matches; the key names pattern takes such lists); several `search` keys are ANDed.',
    entries,
    `^${one}(?:,${one})*$`,
  );
}

/** What each family takes from the relations: their dot paths. */
function relatedKeys(collection: CollectionCatalog): RelationKeys {
  const all = [...collection.relations.values()].map(relationKeys);
  return {
    filter: all.flatMap((k) => k.filter),
    in: all.flatMap((k) => k.in),
    between: all.flatMap((k) => k.between),
    search: all.flatMap((k) => k.search),
    sort: all.flatMap((k) => k.sort),
  };
}

/** `expand`, `has`, `has!`, `count`: one key per relation, the alias's allowances in `x-alias-modifiers`. */
function relationFamilies(collection: CollectionCatalog, maxExpandDepth: number): (Parameter | undefined)[] {
  const relations = [...collection.relations.values()];
  const toMany = relations.filter((r) => r.cardinality === 'many');
  const byName = (build: (r: (typeof relations)[number]) => unknown, list = relations) =>
    Object.fromEntries(list.map((r) => [r.name, build(r)]));
  const aliasNote = 'The value is an optional alias; `x-alias-modifiers` lists, per relation, the fields each alias modifier accepts.';
  return [
    family(
      'expand',
      `Embed related records: \`expand[<relation>]\` or \`expand[<relation>]=<alias>\`. ${aliasNote}`,
      relations.map((r) => expandKey(r, maxExpandDepth)),
      undefined,
      {
        'x-alias-modifiers': byName((r) => aliasModifiers(r, maxExpandDepth)),
      },
    ),
    family(
      'has',
      `Keep records with a related record: \`has[<relation>]\` or \`has[<relation>]=<alias>\`. ${aliasNote}`,
      relations.map(hasKey),
      undefined,
      {
        'x-alias-modifiers': byName(conditionModifiers),
      },
    ),
    family('has!', `Keep records without such a related record: \`has![<relation>]\`. ${aliasNote}`, relations.map(hasNotKey), undefined, {
      'x-alias-modifiers': byName(conditionModifiers),
    }),
    family(
      'count',
      `Count related records: \`count[<relation>]\` adds \`<relation>_count\`. ${aliasNote} \`x-count-fields\` names the field each adds.`,
      toMany.map(countKey),
      undefined,
      {
        'x-alias-modifiers': byName(conditionModifiers, toMany),
        'x-count-fields': byName(countField, toMany),
      },
    ),
  ];
}

/** Every parameter of `GET <prefix>/<collection>`, in a stable order. */
export function collectionParameters(collection: CollectionCatalog, options: ResolvedOptions): Parameter[] {
  const related = relatedKeys(collection);
  const counts = [...collection.relations.values()].filter((r) => r.cardinality === 'many').map(countField);
  const ranged = collection.filterable.filter((field) => isRanged(column(collection, field)));
  const sortEntries = [...collection.sortable.map((field) => sortKey(field)), ...related.sort, ...rankSortKeys(collection)];
  const params: (Parameter | undefined)[] = [
    ...fieldsParameters(collection, rankFields(collection)),
    family(
      'sort',
      'Order by `sort[<field>]=<direction>`; several sort keys apply in query-string order; the primary key is the final tie-breaker.' +
        countWords(counts),
      sortEntries,
      `^${keyPattern([...sortEntries.map((e) => e.key), ...counts])}$`,
    ),
    conditionFamily(
      'filter',
      'Conditions `filter[<field>]=[operator]value`.',
      [...collection.filterable.map((f) => filterKey(collection, f)), ...related.filter],
      counts,
    ),
    conditionFamily('in', 'Lists `in[<field>]=a,b,c`.', [...collection.filterable.map((f) => inKey(collection, f)), ...related.in], counts),
    conditionFamily(
      'between',
      'Ranges `between[<field>]=min,max`.',
      [...ranged.map((f) => betweenKey(collection, f)), ...related.between],
      counts,
    ),
    searchFamily(collection.searchable, related.search),
    ...rankedParameters(collection),
    ...relationFamilies(collection, options.maxExpandDepth),
    ...summaryParameters(collection),
    totalParameter(collection, options),
    ...pagingReferences,
  ];
  return params.filter((p): p is Parameter => p !== undefined);
}
