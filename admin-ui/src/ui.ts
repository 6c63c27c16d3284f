// Owns the page's fixed elements (written in index.html), found once with their real types.
import { element } from './page';

export const ui = {
  collection: element('collection', HTMLSelectElement),
  prefix: element('api-prefix', HTMLInputElement),
  token: element('token', HTMLInputElement),
  openapi: element('openapi-link', HTMLAnchorElement),
  pageMessage: element('page-message', HTMLParagraphElement),
  form: element('query-form', HTMLFormElement),
  pasteForm: element('paste-form', HTMLFormElement),
  paste: element('paste-url', HTMLInputElement),
  pasteMessage: element('paste-message', HTMLParagraphElement),
  url: element('request-url', HTMLPreElement),
  curl: element('curl-command', HTMLPreElement),
  condition: element('condition', HTMLPreElement),
  copyStatus: element('copy-status', HTMLSpanElement),
  run: element('run', HTMLButtonElement),
  explain: element('explain', HTMLButtonElement),
  status: element('result-status', HTMLParagraphElement),
  generalError: element('general-error', HTMLDivElement),
  pagination: element('pagination', HTMLDivElement),
  table: element('panel-table', HTMLDivElement),
  json: element('raw-json', HTMLPreElement),
  sql: element('panel-sql', HTMLDivElement),
};
