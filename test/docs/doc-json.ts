// Reads the JSON that the docs show as responses, which may be shortened with an ellipsis (`…` or
// `...`), and matches it against what the server really answered. The matching rule is written out
// at the top of examples.test.ts.

/** A value as the docs write it: JSON, plus ellipses standing for what was left out. */
export type DocValue =
  | { readonly kind: 'literal'; readonly value: null | boolean | number | string }
  | { readonly kind: 'ellipsis' }
  | { readonly kind: 'array'; readonly items: readonly DocValue[] }
  | { readonly kind: 'object'; readonly members: ReadonlyArray<readonly [string, DocValue]>; readonly open: boolean };

/** A syntax error at a character offset of the parsed text. */
export class DocJsonError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const ELLIPSIS_WORDS: ReadonlySet<string> = new Set(['…', '...']);
const token = /([{}[\]:,])|("(?:[^"\\\n]|\\.)*")|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|(true|false|null)|(…|\.\.\.)/y;

type Token =
  | { readonly kind: 'punct'; readonly text: string; readonly at: number }
  | { readonly kind: 'value'; readonly value: null | boolean | number | string; readonly quoted: boolean; readonly at: number }
  | { readonly kind: 'ellipsis'; readonly at: number };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  for (;;) {
    while (at < text.length && /\s/.test(text.charAt(at))) at += 1;
    if (at >= text.length) return tokens;
    token.lastIndex = at;
    const m = token.exec(text);
    if (m === null) throw new DocJsonError(`unexpected text "${text.slice(at, at + 20)}"`, at);
    const start = at;
    at = token.lastIndex;
    const [, punct, str, num, word] = m;
    if (punct !== undefined) tokens.push({ kind: 'punct', text: punct, at: start });
    else if (str !== undefined) tokens.push({ kind: 'value', value: JSON.parse(str) as string, quoted: true, at: start });
    else if (num !== undefined) tokens.push({ kind: 'value', value: Number(num), quoted: false, at: start });
    else if (word !== undefined) tokens.push({ kind: 'value', value: JSON.parse(word) as null | boolean, quoted: false, at: start });
    else tokens.push({ kind: 'ellipsis', at: start });
  }
}

/** An ellipsis, bare or written as a string (`"…"`, `"..."`), where an element or member stands. */
function isEllipsis(t: Token | undefined): boolean {
  return t?.kind === 'ellipsis' || (t?.kind === 'value' && t.quoted && typeof t.value === 'string' && ELLIPSIS_WORDS.has(t.value));
}

class Parser {
  private index = 0;
  constructor(
    private readonly tokens: readonly Token[],
    private readonly length: number,
  ) {}

  done(): boolean {
    return this.index >= this.tokens.length;
  }

  private peek(): Token | undefined {
    return this.tokens[this.index];
  }

  private fail(message: string): never {
    throw new DocJsonError(message, this.peek()?.at ?? this.length);
  }

  private expectPunct(text: string): void {
    const t = this.peek();
    if (t?.kind !== 'punct' || t.text !== text) this.fail(`expected "${text}"`);
    this.index += 1;
  }

  private punctIs(text: string): boolean {
    const t = this.peek();
    return t?.kind === 'punct' && t.text === text;
  }

  /** The comma between elements; the docs often leave it out around an ellipsis line. */
  private separator(needed: boolean, afterEllipsis: boolean): void {
    if (!needed) return;
    if (this.punctIs(',')) this.index += 1;
    else if (!afterEllipsis && !isEllipsis(this.peek())) this.fail('expected ","');
  }

  value(): DocValue {
    const t = this.peek();
    if (t === undefined) this.fail('expected a value');
    if (t.kind === 'ellipsis') {
      this.index += 1;
      return { kind: 'ellipsis' };
    }
    if (t.kind === 'value') {
      this.index += 1;
      return { kind: 'literal', value: t.value };
    }
    if (t.text === '[') return this.array();
    if (t.text === '{') return this.object();
    return this.fail(`unexpected "${t.text}"`);
  }

  private array(): DocValue {
    this.expectPunct('[');
    const items: DocValue[] = [];
    while (!this.punctIs(']')) {
      this.separator(items.length > 0, items[items.length - 1]?.kind === 'ellipsis');
      if (isEllipsis(this.peek())) {
        this.index += 1;
        items.push({ kind: 'ellipsis' });
      } else {
        items.push(this.value());
      }
    }
    this.expectPunct(']');
    return { kind: 'array', items };
  }

  private object(): DocValue {
    this.expectPunct('{');
    const members: [string, DocValue][] = [];
    let open = false;
    let afterEllipsis = false;
    while (!this.punctIs('}')) {
      this.separator(members.length > 0 || open, afterEllipsis);
      afterEllipsis = false;
      const key = this.peek();
      if (isEllipsis(key)) {
        // `…`, or a member `"…": "…"`: other members may be present.
        this.index += 1;
        if (this.punctIs(':')) {
          this.index += 1;
          this.value();
        }
        open = true;
        afterEllipsis = true;
        continue;
      }
      if (key?.kind !== 'value' || !key.quoted) this.fail('expected a member name in double quotes');
      this.index += 1;
      this.expectPunct(':');
      members.push([String(key.value), this.value()]);
    }
    this.expectPunct('}');
    return { kind: 'object', members, open };
  }
}

/**
 * Parses one or more doc-JSON values written one after another.
 * Example: `parseDocJson('[{"id":1},…]\n[]')` -> two values, the first an array ending in an ellipsis.
 */
export function parseDocJson(text: string): DocValue[] {
  const parser = new Parser(tokenize(text), text.length);
  const values: DocValue[] = [];
  while (!parser.done()) values.push(parser.value());
  return values;
}
