// Owns the envelope's navigation (docs/query-language.md, "The envelope"): first, the `links`
// entries (« Previous, page numbers with ... gaps, Next »), last; each one reloads the form from
// its URL and runs it.
import { h } from '../dom';

interface Link {
  readonly url: string | null;
  readonly label: string;
  readonly active: boolean;
}

export interface Envelope {
  readonly current_page: number;
  readonly last_page: number;
  readonly from: number | null;
  readonly to: number | null;
  readonly total: number;
  /**
   * Present with `total=estimated`: whether `total` is the planner's estimate
   * (docs/query-language.md, "Totals: total=exact, estimated, none").
   */
  readonly total_is_estimate?: boolean;
  readonly per_page: number;
  readonly first_page_url: string | null;
  readonly last_page_url: string | null;
  readonly links: readonly Link[];
}

export function asEnvelope(body: unknown): Envelope | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  return Array.isArray(record.links) && Array.isArray(record.data) && typeof record.current_page === 'number'
    ? (body as Envelope)
    : undefined;
}

/** `&laquo; Previous` -> `« Previous` (the labels are HTML text; parsing them never runs anything). */
export function decodeLabel(label: string): string {
  return new DOMParser().parseFromString(`<!doctype html><body>${label}`, 'text/html').body.textContent;
}

export function navButton(
  text: string,
  url: string | null,
  onNavigate: (url: string) => void,
  props: { current?: boolean; label?: string } = {},
): HTMLElement {
  const element = h('button', {
    text,
    class: props.current ? 'page current' : 'page',
    attrs: { type: 'button', 'aria-current': props.current ? 'page' : undefined, 'aria-label': props.label },
  });
  if (url === null || props.current) element.disabled = true;
  else element.addEventListener('click', () => onNavigate(url));
  return element;
}

/** "Records 11–20 of 47 · page 2 of 5" and the navigation buttons. */
export function envelopeNavigation(envelope: Envelope, onNavigate: (url: string) => void): HTMLElement {
  const estimate = envelope.total_is_estimate === true;
  const total = estimate ? `about ${envelope.total}` : String(envelope.total);
  const range = envelope.from === null ? 'No records on this page' : `Records ${envelope.from}–${envelope.to ?? envelope.from} of ${total}`;
  const summary = `${range} · page ${envelope.current_page} of ${estimate ? 'about ' : ''}${envelope.last_page}${estimate ? ' (the total is an estimate)' : ''}`;
  const onFirst = envelope.current_page === 1;
  const onLast = envelope.current_page >= envelope.last_page;
  return h(
    'nav',
    { class: 'pages', attrs: { 'aria-label': 'Result pages' } },
    h('p', { class: 'page-summary', text: summary }),
    h(
      'div',
      { class: 'page-buttons' },
      navButton('First', onFirst ? null : envelope.first_page_url, onNavigate, { label: 'First page' }),
      ...envelope.links.map((link) => {
        const text = decodeLabel(link.label);
        // Laravel's gap entry (`...`, no URL) is not something to press.
        if (link.url === null && /^(\.\.\.|…)$/.test(text)) return h('span', { class: 'gap', text: '…', attrs: { 'aria-hidden': 'true' } });
        const number = /^\d+$/.test(text);
        return navButton(text, link.url, onNavigate, { current: link.active, ...(number ? { label: `Page ${text}` } : {}) });
      }),
      navButton('Last', onLast ? null : envelope.last_page_url, onNavigate, { label: 'Last page' }),
    ),
  );
}
