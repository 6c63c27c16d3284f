// Range checks for values PostgreSQL would refuse to read
// (docs/query-language.md, "Accepted forms per column type"): a real that rounds to infinity or to
// zero, a numeric past its digit limits. Used for columns, array elements and the numbers inside
// JSON values.

/** Digits a numeric may have before its decimal point, and after it (PostgreSQL's numeric limits). */
const numericLimits = { before: 131072, after: 16383 } as const;

/**
 * `123.45e2` -> true; `1e200000` -> false: whether PostgreSQL's numeric can hold the decimal
 * `digits[.fraction][e exponent]` (signs already removed), counting digits the way its input does.
 */
export function numericFits(whole: string, fraction: string, exponent: number): boolean {
  const significant = whole.replace(/^0+/, '').length;
  return significant + exponent <= numericLimits.before && Math.max(0, fraction.length - exponent) <= numericLimits.after;
}

const decimalShape = /^[+-]?(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/** `1.5e3` -> true; `1e-20000` -> false (see numericFits); undefined when it is not such a decimal. */
export function decimalFits(text: string): boolean | undefined {
  const m = decimalShape.exec(text);
  if (m === null || ((m[1] ?? '') === '' && (m[2] ?? '') === '')) return undefined;
  return numericFits(m[1] ?? '', m[2] ?? '', Number(m[3] ?? '0'));
}

/**
 * `1e-50` on a real -> the problem in words; `0.5` -> undefined. PostgreSQL refuses a value that
 * rounds to infinity, or to zero when it is not zero, for `real` (float4) and `double precision` alike.
 */
export function floatProblem(text: string, n: number, single: boolean): string | undefined {
  const stored = single ? Math.fround(n) : n;
  const mantissa = text.split(/e/i)[0] ?? '';
  if (Number.isFinite(stored) && !(stored === 0 && /[1-9]/.test(mantissa))) return undefined;
  return single
    ? 'is out of range for a real, whose magnitude is 0 or from 1.4e-45 to 3.4e38'
    : 'is out of range for a double precision, whose magnitude is 0 or from 4.9e-324 to 1.8e308';
}
