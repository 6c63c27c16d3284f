// fast-check generators of the values inside generated requests: literals for every column type
// of the fixture, drawn mostly from the stored data (so clauses match something) and from edge
// cases around it (day boundaries, every timestamp form, quoting, odd texts).

import fc from 'fast-check';
import { Dataset, FieldSpec, ScalarType } from './model';
import { Literal } from './query';
import { parseArray, parseInstant } from './values';

export interface GeneratorContext {
  readonly data: Dataset;
  /** False when the database's collation is not byte order: no text ordering is generated. */
  readonly textOrder: boolean;
}

/** Every casing of a word, chosen by the bits of `n`: `or!` -> `oR!`. */
export function recase(word: string, n: number): string {
  // eslint-disable-next-line @typescript-eslint/no-misused-spread -- code points on purpose: one casing bit per character
  return [...word].map((c, i) => ((n >> i) & 1 ? c.toUpperCase() : c)).join('');
}

export const casedWord = (words: readonly string[]): fc.Arbitrary<string> =>
  fc.tuple(fc.constantFrom(...words), fc.nat(255)).map(([w, n]) => (n % 3 === 0 ? recase(w, n) : w));

export function pool(data: Dataset, table: string, column: string): string[] {
  const values = (data.rows.get(table) ?? []).map((r) => r[column]).filter((v): v is string => typeof v === 'string');
  return [...new Set(values)];
}

// ---- literals -------------------------------------------------------------------------------

const DAY_MS = 86_400_000;

function shiftDay(day: string, by: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + by * DAY_MS).toISOString().slice(0, 10);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** An instant written in one of the accepted forms: `T` or space, minutes..microseconds, Z/offset/none. */
function writeInstant(micros: bigint, form: { space: boolean; precision: number; zone: number | null }): string {
  const offsetMinutes = form.zone ?? 0;
  const local = micros + BigInt(offsetMinutes) * 60_000_000n;
  const ms = Number(local / 1000n);
  const d = new Date(ms);
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  let time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  if (form.precision >= 0) time += `:${pad(d.getUTCSeconds())}`;
  if (form.precision > 0) {
    const fraction = (local % 1_000_000n).toString().padStart(6, '0');
    time += `.${fraction.slice(0, form.precision)}`;
  }
  let zone = '';
  if (form.zone === 0) zone = 'Z';
  else if (form.zone !== null) {
    const abs = Math.abs(form.zone);
    zone = `${form.zone < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  }
  return `${date}${form.space ? ' ' : 'T'}${time}${zone}`;
}

const DELTAS_MICROS = [0n, 0n, 0n, 1n, -1n, 1000n, -1000n, 1_000_000n, -1_000_000n, 3_600_000_000n, -86_400_000_000n];

function timestampText(stored: readonly string[]): fc.Arbitrary<string> {
  const instants = stored.map((s) => parseInstant(s) as bigint);
  const days = [...new Set(stored.map((s) => s.slice(0, 10)))];
  const day = fc.tuple(fc.constantFrom(...days), fc.constantFrom(0, 0, 1, -1)).map(([d, by]) => shiftDay(d, by));
  const instant = fc
    .record({
      at: fc.constantFrom(...instants),
      delta: fc.constantFrom(...DELTAS_MICROS),
      space: fc.boolean(),
      // -1 minutes only, 0 seconds, 1..6 fractional digits; full precision most often so equality can hit.
      precision: fc.constantFrom(6, 6, 6, -1, 0, 1, 3, 5),
      zone: fc.constantFrom<number | null>(0, 0, null, 120, -300, 345, -30),
    })
    .map(({ at, delta, space, precision, zone }) => writeInstant(at + delta, { space, precision, zone }));
  return fc.oneof({ arbitrary: day, weight: 2 }, { arbitrary: instant, weight: 3 });
}

function numericText(stored: readonly string[]): fc.Arbitrary<string> {
  const variants = stored.flatMap((s) => [s, s.replace(/0+$/, '').replace(/\.$/, ''), `${s}0`]);
  const made = fc
    .tuple(fc.integer({ min: -20, max: 120 }), fc.nat(999), fc.constantFrom(0, 1, 2, 3))
    .map(([i, f, digits]) => (digits === 0 ? String(i) : `${i}.${String(f).padStart(3, '0').slice(0, digits)}`));
  return fc.oneof(fc.constantFrom(...variants), made, fc.constantFrom('-0.25', '0', '100000.001', '9999.99'));
}

const TEXT_EDGES = [
  '',
  'null',
  'NULL',
  '>x',
  '<b>',
  '=eq',
  '"quoted"',
  '"',
  'a,b',
  'back\\slash',
  ' lead',
  'trail ',
  "O'Brien",
  '100%',
  'Under_',
  '*Star*',
  'é',
  '\u{1F600}',
  'Zz',
  'a',
  '~',
  "'; drop table users; --",
];

function textText(stored: readonly string[]): fc.Arbitrary<string> {
  const mutated = fc.tuple(fc.constantFrom(...stored), fc.nat(6), fc.nat(40)).map(([s, how, n]) => {
    switch (how) {
      case 0:
        return s.toUpperCase();
      case 1:
        return s.slice(0, n % (s.length + 1));
      case 2:
        return `${s} `;
      case 3:
        return s.slice(n % (s.length + 1));
      default:
        return s;
    }
  });
  return fc.oneof(
    { arbitrary: fc.constantFrom(...stored), weight: 5 },
    { arbitrary: mutated, weight: 2 },
    { arbitrary: fc.constantFrom(...TEXT_EDGES), weight: 2 },
    { arbitrary: fc.string({ unit: fc.constantFrom('a', 'B', ' ', ',', '"', '\\', '%', '_', '*', '>', 'é'), maxLength: 6 }), weight: 1 },
  );
}

function integerText(stored: readonly string[], big: boolean): fc.Arbitrary<string> {
  const edges = big
    ? ['9007199254740993', '9007199254740992', '9223372036854775807', '-9223372036854775808', '007', '-0']
    : ['2147483647', '-2147483648', '007', '-0'];
  return fc.oneof(
    { arbitrary: fc.constantFrom(...stored), weight: 3 },
    { arbitrary: fc.integer({ min: -3, max: 30 }).map(String), weight: 3 },
    { arbitrary: fc.constantFrom(...edges), weight: 1 },
  );
}

function dateText(stored: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.tuple(fc.constantFrom(...stored), fc.constantFrom(0, 0, 1, -1)).map(([d, by]) => shiftDay(d, by)),
    fc.constantFrom('2000-02-29', '1970-01-01', '0001-01-01', '9999-12-31'),
  );
}

/** The distinct non-null elements of an array column's stored arrays. */
function elementPool(data: Dataset, table: string, column: string): string[] {
  const elements = pool(data, table, column)
    .flatMap(parseArray)
    .filter((e): e is string => e !== null);
  return [...new Set(elements)];
}

/** Labels only: a value that is not a label is a 400 (column-types tests), not this suite's question. */
function enumText(field: FieldSpec): fc.Arbitrary<string> {
  return fc.constantFrom(...(field.labels ?? []));
}

/** The text of a non-null literal for `field`: for an array, one element of its element type. */
function valueText(ctx: GeneratorContext, table: string, field: FieldSpec): fc.Arbitrary<string> {
  if (field.type === 'enum') return enumText(field);
  if (field.type === 'array') {
    const elements = elementPool(ctx.data, table, field.name);
    return scalarText(field.element ?? 'text', elements.length === 0 ? ['0'] : elements);
  }
  return scalarText(field.type, pool(ctx.data, table, field.name));
}

function scalarText(type: ScalarType, stored: readonly string[]): fc.Arbitrary<string> {
  switch (type) {
    case 'integer':
      return integerText(stored, false);
    case 'bigint':
      return integerText(stored, true);
    case 'numeric':
      return numericText(stored);
    case 'text':
      return textText(stored);
    case 'boolean':
      return casedWord(['true', 'false']);
    case 'date':
      return dateText(stored);
    case 'timestamptz':
      return timestampText(stored);
  }
}

/**
 * Quotes where the contract requires it (the text `null`, a leading operator character, a wrapping
 * quote, edge spaces; in lists also commas, quotes, backslashes and the empty item) and sometimes
 * where it does not.
 */
export function literal(ctx: GeneratorContext, table: string, field: FieldSpec, inList: boolean): fc.Arbitrary<Literal> {
  return fc.tuple(valueText(ctx, table, field), fc.nat(9)).map(([text, n]): Literal => {
    const mustQuote =
      text === 'null' ||
      /^[<>=]/.test(text) ||
      /^"|"$/.test(text) ||
      /^\s|\s$/.test(text) ||
      (inList && (text === '' || /[,"\\]/.test(text)));
    const quoted = mustQuote || (field.type === 'text' ? n < 3 : n === 0);
    return { isNull: false, text, quoted };
  });
}
