// Owns the navigation of the simple envelope (`total=none`,
// docs/query-language.md, "Totals: total=exact, estimated, none"): no total and no page list, only
// the first, previous and next pages.
import { h } from '../dom';
import { navButton } from './links';

export interface SimpleEnvelope {
  readonly current_page: number;
  readonly from: number | null;
  readonly to: number | null;
  readonly first_page_url: string;
  readonly prev_page_url: string | null;
  readonly next_page_url: string | null;
}

export function asSimpleEnvelope(body: unknown): SimpleEnvelope | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const simple = Array.isArray(record.data) && typeof record.current_page === 'number' && 'next_page_url' in record && !('links' in record);
  return simple ? (body as SimpleEnvelope) : undefined;
}

/** "Records 6–10 · page 2 (no total counted)" and First, Previous, Next. */
export function simpleNavigation(envelope: SimpleEnvelope, onNavigate: (url: string) => void): HTMLElement {
  const range = envelope.from === null ? 'No records on this page' : `Records ${envelope.from}–${envelope.to ?? envelope.from}`;
  return h(
    'nav',
    { class: 'pages', attrs: { 'aria-label': 'Result pages' } },
    h('p', { class: 'page-summary', text: `${range} · page ${envelope.current_page} (no total counted)` }),
    h(
      'div',
      { class: 'page-buttons' },
      navButton('First', envelope.current_page === 1 ? null : envelope.first_page_url, onNavigate, { label: 'First page' }),
      navButton('« Previous', envelope.prev_page_url, onNavigate, { label: 'Previous page' }),
      navButton('Next »', envelope.next_page_url, onNavigate, { label: 'Next page' }),
    ),
  );
}
