// Owns the frame of every builder section: one compact line (name, what it does, the add button)
// while it is empty, a fieldset with its rows once it has some.
import { h } from '../dom';

export function sectionBox(id: string, title: string, help: string, rows: readonly HTMLElement[], add: HTMLElement): HTMLElement {
  if (rows.length === 0) {
    return h(
      'div',
      { class: 'section compact', id },
      h('span', { class: 'section-name', text: title }),
      h('span', { class: 'help', text: help }),
      add,
    );
  }
  return h('fieldset', { class: 'section', id }, h('legend', { text: title }), h('p', { class: 'help', text: help }), ...rows, add);
}
