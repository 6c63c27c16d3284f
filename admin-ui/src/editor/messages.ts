// Owns what a refusal from the server says on the editor's face: a sentence about the control it
// points at, in the editor's words; the server's own detail stays folded underneath for developers.

/** The editor's sentence for a problem code (docs/errors.md lists the codes). */
export function editorMessage(code: string, detail: string): string {
  const number = /\b(\d[\d,]*)\b/.exec(detail)?.[1];
  switch (code) {
    case 'INVALID_VALUE':
      return 'This value does not fit this field: check it (a number too large, a date that does not exist, …).';
    case 'PAGE_SIZE_TOO_LARGE':
      return number === undefined ? 'Too many records per page.' : `At most ${number} records fit on a page.`;
    case 'LIMIT_EXCEEDED':
      return `Too many records to export at once${number === undefined ? '' : ` (at most ${number})`}: add conditions to narrow the list first.`;
    case 'CONFLICTING_PARAMETERS':
      return 'These settings cannot be used together: change or remove one of them.';
    case 'FIELD_NOT_ALLOWED':
      return 'This field cannot be used here: choose another.';
    default:
      return 'The server could not use this setting: change it and try again.';
  }
}

/** The general message above the results when the server refused the list. */
export function editorRefusal(placed: boolean): string {
  return placed
    ? 'The list could not be shown: the marked setting needs a change.'
    : 'The list could not be shown: the server refused it. Open the developer view for the details.';
}
