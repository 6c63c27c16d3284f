// Recognises which query keys belong to this plugin and splits them into alias, modifier and the
// bracketed argument. Keys that are not ours are ignored
// (docs/query-language.md, "How the query string is read"); keys that look like ours but are
// malformed are reported.

import { decodeAsciiEscapes } from './query-string';
import { bracketed, isAliasModifier, isModifier, type Modifier } from './vocabulary';

export type KeyReading =
  | { readonly kind: 'foreign' }
  | { readonly kind: 'malformed'; readonly detail: string }
  | {
      readonly kind: 'modifier';
      readonly alias: string | undefined;
      readonly modifier: Modifier;
      readonly argument: string | undefined;
    };

const keyShape = /^(?:([A-Za-z][A-Za-z0-9]*)_)?([a-z]+(?:-[a-z]+)?!?)(\[.*)?$/s;
const bracketShape = /^\[([^[\]]*)\]$/s;
const aliasPrefixShape = /^([A-Za-z][A-Za-z0-9]*)_/;

const scopedList =
  'fields, fields!, sort[...], search[...], filter[...], in[...], between[...], match, similar[...], expand[...], limit, offset';

/** `p_sort[created_at]` -> `{alias: 'p', modifier: 'sort', argument: 'created_at'}`; `utm_source` -> foreign. */
export function readKey(key: string): KeyReading {
  if (key === 'per_page' || key === 'page_size') {
    return { kind: 'malformed', detail: `\`${key}\` is not a parameter of this API; the page size is \`per-page\` or \`page-size\`.` };
  }
  // Read whole: `facet` is no alias (reserved), so this is never an alias's window.
  if (key === 'facet_limit') return { kind: 'modifier', alias: undefined, modifier: 'facet_limit', argument: undefined };
  const match = keyShape.exec(key);
  if (match === null) return { kind: 'foreign' };
  const [, alias, word = '', bracket] = match;
  if (!isModifier(word)) return { kind: 'foreign' };
  // `x_page` may well be a host's own parameter: only the alias modifiers are ours behind an alias.
  if (alias !== undefined && !isAliasModifier(word)) return { kind: 'foreign' };
  if (!bracketed[word]) {
    if (bracket !== undefined) {
      return { kind: 'malformed', detail: `\`${word}\` takes no brackets: write \`${alias ? alias + '_' : ''}${word}=...\`.` };
    }
    return { kind: 'modifier', alias, modifier: word, argument: undefined };
  }
  const inner = bracket === undefined ? undefined : bracketShape.exec(bracket)?.[1];
  if (inner === undefined || inner === '') {
    return {
      kind: 'malformed',
      detail: `\`${word}\` needs a field in brackets, e.g. \`${alias ? alias + '_' : ''}${word}[name]\`.`,
    };
  }
  return { kind: 'modifier', alias, modifier: word, argument: inner };
}

/**
 * The alias a key not of ours would name if it were an alias modifier: `p_page` -> `'p'`,
 * `utm_source` -> `'utm'`, `_` -> undefined. Whether it is a mistake depends on the request's
 * declared aliases (docs/query-language.md, "Aliases and alias modifiers"), which only the whole
 * query string tells.
 */
export function aliasPrefix(key: string): string | undefined {
  return aliasPrefixShape.exec(key)?.[1];
}

/** The detail for `p_page` when `p` is a declared alias: `p_page` names no alias modifier. */
export function notAnAliasModifier(key: string, alias: string): string {
  return `\`${key}\` starts with the expansion alias "${alias}" but names no alias modifier. Only ${scopedList} can follow an expansion alias.`;
}

/** Rounds of decoding a key's ASCII escapes that may still reveal one of ours: a key encoded up to four times. */
const decodingRounds = 4;

/**
 * `text` with its ASCII escapes decoded once, twice, ... up to `rounds` times, stopping when a round
 * changes nothing. Bounded, so a key of nested escapes costs a few passes, not one per level.
 */
function decodedAgain(text: string, rounds: number): string[] {
  const texts: string[] = [];
  let last = text;
  for (let round = 0; round < rounds; round++) {
    const next = decodeAsciiEscapes(last);
    if (next === last) break;
    texts.push(next);
    last = next;
  }
  return texts;
}

const hasEncodedBracket = (text: string): boolean => /%5[BbDd]/.test(text);

/**
 * Whether a key that is not valid percent-encoded UTF-8 was meant for this API, so that it is
 * refused rather than ignored: `filter%5Bname%E0%5D` is (it has an encoded bracket, and reads
 * `filter[name%E0]` once its ASCII escapes are decoded), and so is `filter%255Bname%E0%255D` (the
 * same, encoded twice); `utm%E0` is not.
 */
export function claimsUndecodableKey(rawKey: string): boolean {
  // Ignoring such a key would answer as if its condition were absent: all the records.
  const first = decodeAsciiEscapes(rawKey);
  const texts = [first, ...decodedAgain(first, decodingRounds - 1)];
  return hasEncodedBracket(rawKey) || texts.some((text) => hasEncodedBracket(text) || readKey(text).kind !== 'foreign');
}

/**
 * Whether a key that decoded to a key not of ours would be ours once its escapes are decoded again:
 * `filter%255Bname%255D` decodes to `filter%5Bname%5D`, which reads `filter[name]` one round later.
 * Ignoring it would answer as if its condition were absent.
 */
export function claimsReencodedKey(key: string): boolean {
  return decodedAgain(key, decodingRounds - 1).some((text) => readKey(text).kind !== 'foreign');
}
