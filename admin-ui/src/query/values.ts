// Owns reading list values the way the plugin does (docs/query-language.md, "Writing values"):
// comma-separated items, each possibly double-quoted with backslash escapes; and showing single
// values in the condition preview.

/** `"Smith, John",Jane` -> ['"Smith, John"', 'Jane'] (items keep their quotes, so nothing is lost). */
export function splitList(text: string): string[] {
  const items: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charAt(i);
    if (quoted && ch === '\\' && i + 1 < text.length) {
      current += ch + text.charAt(i + 1);
      i += 1;
    } else if (ch === '"') {
      quoted = !quoted;
      current += ch;
    } else if (ch === ',' && !quoted) {
      items.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  items.push(current);
  return items;
}

/** `"a \"b\""` -> `a "b"`; text without surrounding quotes is returned as it is. */
export function unquote(text: string): string {
  if (!(text.length >= 2 && text.startsWith('"') && text.endsWith('"'))) return text;
  return text.slice(1, -1).replace(/\\(.)/gs, '$1');
}
