// Owns the pagination builder: all records (a bare array, up to maxRows), pages (the envelope with
// navigation links, and how it gets its total), cursor pages (keyset: previous and next) or limit
// and offset.
import { h, labelled } from '../dom';
import type { CollectionMeta } from '../meta';
import type { FormState, PagingMode, PagingState } from '../state';
import type { FormContext } from './context';

function numberInput(
  id: string,
  paging: PagingState,
  part: 'perPage' | 'page' | 'limit' | 'offset',
  ctx: FormContext,
  attrs: Record<string, string>,
): HTMLInputElement {
  const element = h('input', {
    id,
    attrs: { type: 'number', inputmode: 'numeric', ...attrs },
    on: {
      input: () => {
        paging[part] = element.value;
        ctx.changed();
      },
    },
  });
  element.value = paging[part];
  return element;
}

const totalWords: Readonly<Record<string, string>> = {
  exact: 'exact (count every record)',
  estimated: 'estimated (planner estimate on large results)',
  none: 'none (previous and next only)',
};

/** The `total=` choice: the collection's default first, then each mode (docs/query-language.md, "Totals: total=exact, estimated, none"). */
function totalSelect(paging: PagingState, meta: CollectionMeta, ctx: FormContext): HTMLSelectElement {
  const { total, totalModes } = meta.pagination;
  const select = h(
    'select',
    {
      id: 'total',
      on: {
        change: () => {
          paging.total = select.value;
          ctx.changed();
        },
      },
    },
    h('option', { text: `Default: ${totalWords[total] ?? total}`, attrs: { value: '' } }),
    ...totalModes.map((mode) => h('option', { text: totalWords[mode] ?? mode, attrs: { value: mode } })),
  );
  select.value = totalModes.includes(paging.total) ? paging.total : '';
  return select;
}

export function pagingSection(state: FormState, meta: CollectionMeta, ctx: FormContext): HTMLElement {
  const paging = state.paging;
  const modes: ReadonlyArray<[PagingMode, string]> = [
    ['none', `All records (at most ${meta.maxRows})`],
    ['pages', 'Pages'],
    ...(meta.pagination.modes.includes('cursor') ? [['cursor', 'Cursor (previous and next, no total)'] as [PagingMode, string]] : []),
    ['limit', 'Limit and offset'],
  ];
  const radios = modes.map(([mode, label]) => {
    const radio = h('input', { id: `paging-${mode}`, attrs: { type: 'radio', name: 'paging-mode', value: mode } });
    radio.checked = paging.mode === mode;
    radio.addEventListener('change', () => {
      paging.mode = mode;
      const paged = mode === 'pages' || mode === 'cursor';
      if (paged && paging.perPage === '' && paging.page === '') paging.perPage = String(meta.pagination.defaultPageSize);
      ctx.rebuild(radio.id);
    });
    return h('label', { class: 'check', attrs: { for: radio.id } }, radio, label);
  });
  const max = String(meta.pagination.maxPageSize);
  const inputs =
    paging.mode === 'pages'
      ? [
          labelled(
            `Page size (1–${max})`,
            numberInput('per-page', paging, 'perPage', ctx, { min: '1', max, placeholder: String(meta.pagination.defaultPageSize) }),
            '',
            'paging-per-page',
          ),
          labelled('Page', numberInput('page', paging, 'page', ctx, { min: '1', placeholder: '1' }), '', 'paging-page'),
          labelled('Total', totalSelect(paging, meta, ctx), '', 'paging-total'),
        ]
      : paging.mode === 'cursor'
        ? [
            labelled(
              `Page size (1–${max})`,
              numberInput('per-page', paging, 'perPage', ctx, { min: '1', max, placeholder: String(meta.pagination.defaultPageSize) }),
              '',
              'paging-per-page',
            ),
          ]
        : paging.mode === 'limit'
          ? [
              labelled(
                'Limit',
                numberInput('limit', paging, 'limit', ctx, { min: '0', placeholder: String(meta.maxRows) }),
                '',
                'paging-limit',
              ),
              labelled('Offset', numberInput('offset', paging, 'offset', ctx, { min: '0', placeholder: '0' }), '', 'paging-offset'),
            ]
          : [];
  return h(
    'fieldset',
    { class: 'section', id: 'paging' },
    h('legend', { text: 'Pagination' }),
    h('div', { class: 'check-list', attrs: { role: 'radiogroup', 'aria-label': 'How many records' } }, ...radios),
    inputs.length === 0 ? null : h('div', { class: 'row align-top' }, ...inputs),
  );
}
