// Owns the search box: `match=<text>`, ranked full-text search in web-search syntax, best matches
// first (docs/query-language.md, "Ranked search: match and similar"). Shown only for collections
// whose model declares a search document.
import { h, labelled } from '../dom';
import type { CollectionMeta } from '../meta';
import type { FormState } from '../state';
import type { FormContext } from './context';

export function matchSection(state: FormState, meta: CollectionMeta, ctx: FormContext): HTMLElement[] {
  if (meta.matchLanguage === undefined && state.match === '') return [];
  const input = h('input', {
    id: 'match',
    attrs: { type: 'search', placeholder: 'words, "a phrase", or, -word', autocomplete: 'off' },
    on: {
      input: () => {
        state.match = input.value;
        ctx.changed();
      },
    },
  });
  input.value = state.match;
  return [
    h(
      'div',
      { class: 'section compact', id: 'match-section' },
      labelled('Search', input),
      h('span', { class: 'help', text: `Ranked full-text search (${meta.matchLanguage ?? 'not declared'}), best matches first.` }),
    ),
  ];
}
