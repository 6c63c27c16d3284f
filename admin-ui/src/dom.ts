// Owns the tiny DOM helpers the page is built with: element creation with attributes, listeners and
// children, and labelled controls (every control gets a visible <label>).

type Child = Node | string | null | undefined | false;

export interface Props {
  readonly id?: string;
  readonly class?: string;
  readonly text?: string;
  readonly attrs?: Readonly<Record<string, string | boolean | undefined>>;
  readonly on?: { readonly [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
}

/** `h('button', {class: 'primary', text: 'Run'})` -> <button class="primary">Run</button> */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.id !== undefined) element.id = props.id;
  if (props.class !== undefined) element.className = props.class;
  if (props.text !== undefined) element.textContent = props.text;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === true) element.setAttribute(name, '');
    else if (typeof value === 'string') element.setAttribute(name, value);
  }
  for (const [name, listener] of Object.entries(props.on ?? {})) {
    element.addEventListener(name, listener as EventListener);
  }
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) element.append(child);
  }
  return element;
}

export interface Choice {
  readonly value: string;
  readonly label: string;
}

/**
 * A <select> offering `choices`. A current value that is not among them (from a pasted URL) is kept
 * as an extra choice marked "not offered", so the URL survives and the API's answer can point at it.
 */
export function select(id: string, choices: readonly Choice[], value: string, onChange: (value: string) => void): HTMLSelectElement {
  const known = choices.some((choice) => choice.value === value);
  const all = known || value === '' ? choices : [...choices, { value, label: `${value} (not offered)` }];
  const element = h(
    'select',
    { id, on: { change: () => onChange(element.value) } },
    ...all.map((choice) => h('option', { text: choice.label, attrs: { value: choice.value } })),
  );
  element.value = value;
  return element;
}

export const choices = (values: readonly string[]): Choice[] => values.map((value) => ({ value, label: value }));

export function input(id: string, value: string, onInput: (value: string) => void, attrs: Props['attrs'] = {}): HTMLInputElement {
  const element = h('input', {
    id,
    attrs: { type: 'text', autocomplete: 'off', spellcheck: 'false', ...attrs },
    on: { input: () => onInput(element.value) },
  });
  element.value = value;
  return element;
}

/** A control with its visible label above it; `id` names the wrapper (where problems are shown). */
export function labelled(caption: string, control: HTMLElement, extraClass = '', id?: string): HTMLElement {
  return h(
    'div',
    { class: `control ${extraClass}`.trim(), ...(id === undefined ? {} : { id }) },
    h('label', { text: caption, attrs: { for: control.id } }),
    control,
  );
}

/** A button that does not submit anything; `label` is its accessible name when `text` is a symbol. */
export function button(text: string, onClick: () => void, props: { id?: string; class?: string; label?: string } = {}): HTMLButtonElement {
  return h('button', {
    ...(props.id === undefined ? {} : { id: props.id }),
    class: props.class ?? '',
    text,
    attrs: { type: 'button', 'aria-label': props.label, title: props.label },
    on: { click: onClick },
  });
}
