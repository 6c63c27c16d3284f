// Chooses, once at start-up, how `search` compares each column (issue 16): `ILIKE` where a trigram
// index on the plain column serves it, `lower(column) LIKE lower(pattern)` everywhere else. Both mean
// the same (the database's lower() on both sides); where no index serves the search, PostgreSQL
// scans and lower() LIKE costs less than ILIKE, which lower-cases the pattern again for every row.

import type { Knex } from 'knex';
import { readIndexes, type TableIndex } from './indexes';
import type { SearchForm } from './types';

/** One key that can serve `search` on a column: the column itself or `lower(column)`, in an index. */
interface IndexRow {
  column_name: string;
  index_name: string;
  /** The index key is `lower(column)` rather than the column itself. */
  lowered: boolean;
  /** Its operator class is pg_trgm's (gin_trgm_ops, gist_trgm_ops). */
  trigram: boolean;
}

const trigramClasses: ReadonlySet<string> = new Set(['gin_trgm_ops', 'gist_trgm_ops']);

/** Keys that are a column under a pg_trgm operator class, or `lower(column)` under any operator class (a btree one serves prefixes, a trigram one any pattern). */
const searchKeys = (indexes: readonly TableIndex[]): IndexRow[] =>
  indexes.flatMap((index) =>
    index.keys.flatMap((key): IndexRow[] => {
      const trigram = trigramClasses.has(key.opclass);
      if (key.lowered !== null) return [{ column_name: key.lowered, index_name: index.name, lowered: true, trigram }];
      if (key.column !== null && trigram) return [{ column_name: key.column, index_name: index.name, lowered: false, trigram }];
      return [];
    }),
  );

/**
 * A trigram index on `lower(column)` serves the lower form as well as one on the column serves
 * ILIKE; failing that, a trigram index on the column (ILIKE); failing that the lower form, served
 * by a btree index on `lower(column)` if there is one. `char(n)` keeps ILIKE: lower() would first
 * drop its padding.
 */
function chooseForm(indexes: readonly IndexRow[], udt: string): SearchForm {
  const pick = (lowered: boolean, trigram?: boolean) =>
    indexes.find((row) => row.lowered === lowered && (trigram === undefined || row.trigram === trigram))?.index_name;
  if (udt === 'bpchar') return { kind: 'ilike' };
  const lowerTrigram = pick(true, true);
  if (lowerTrigram !== undefined) return { kind: 'lower', index: lowerTrigram };
  const trigram = pick(false);
  if (trigram !== undefined) return { kind: 'ilike', index: trigram };
  const lowered = pick(true);
  return lowered === undefined ? { kind: 'lower' } : { kind: 'lower', index: lowered };
}

/** `users` with a trigram index on `name` -> Map { 'users' => Map { 'name' => {kind: 'ilike', index: ...}, 'email' => {kind: 'lower'} } }. */
export async function searchForms(
  knex: Knex,
  tables: readonly string[],
  regclassNames: readonly string[],
  columns: ReadonlyMap<string, readonly { column: string; udt: string }[]>,
): Promise<Map<string, Map<string, SearchForm>>> {
  const indexes = await readIndexes(knex, regclassNames);
  const forms = new Map<string, Map<string, SearchForm>>();
  tables.forEach((table, i) => {
    const rows = searchKeys(indexes.get(regclassNames[i] as string) ?? []);
    const byColumn = new Map<string, SearchForm>();
    for (const { column, udt } of columns.get(table) ?? []) {
      byColumn.set(
        column,
        Object.freeze(
          chooseForm(
            rows.filter((row) => row.column_name === column),
            udt,
          ),
        ),
      );
    }
    forms.set(table, byColumn);
  });
  return forms;
}
