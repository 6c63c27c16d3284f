// Owns the navigation of the cursor envelope (`cursor=`,
// docs/query-language.md, "Cursors: cursor"): no page numbers and no total, only the first page and
// the pages before and after this one, by their cursors.
import { h } from '../dom';
import { navButton } from './links';

export interface CursorEnvelope {
  readonly data: readonly unknown[];
  readonly per_page: number;
  readonly next_page_url: string | null;
  readonly prev_page_url: string | null;
}

export function asCursorEnvelope(body: unknown): CursorEnvelope | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  return Array.isArray(record.data) && 'next_cursor' in record && 'prev_cursor' in record ? (body as CursorEnvelope) : undefined;
}

/** This page's URL with an empty `cursor`: the first page. */
const firstPage = (url: string): string => url.replace(/([?&]cursor=)[^&]*/, '$1');

/** "3 records on this page (cursor pages: no total counted)" and First, Previous, Next. */
export function cursorNavigation(envelope: CursorEnvelope, onNavigate: (url: string) => void): HTMLElement {
  const count = envelope.data.length;
  const summary = `${count === 0 ? 'No' : count} record${count === 1 ? '' : 's'} on this page (cursor pages: no total counted)`;
  const prev = envelope.prev_page_url;
  return h(
    'nav',
    { class: 'pages', attrs: { 'aria-label': 'Result pages' } },
    h('p', { class: 'page-summary', text: summary }),
    h(
      'div',
      { class: 'page-buttons' },
      navButton('First', prev === null ? null : firstPage(prev), onNavigate, { label: 'First page' }),
      navButton('« Previous', prev, onNavigate, { label: 'Previous page' }),
      navButton('Next »', envelope.next_page_url, onNavigate, { label: 'Next page' }),
    ),
  );
}
