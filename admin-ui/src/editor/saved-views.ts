// Owns saved views: a named query of a collection, kept in this browser (localStorage), opened from
// a list, and shared as a link to this page (its address holds the whole view after the #).
import { button, h, input, labelled, select } from '../dom';

export interface SavedView {
  readonly name: string;
  readonly collection: string;
  /** The query string, as the page's address holds it after `#<collection>?`. */
  readonly query: string;
}

const storageKey = 'koa-query-modifiers.admin.views';

export function readViews(): SavedView[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(storageKey) ?? '[]');
    return Array.isArray(value)
      ? value.filter(
          (v): v is SavedView =>
            typeof v === 'object' && v !== null && typeof (v as SavedView).name === 'string' && typeof (v as SavedView).query === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

function writeViews(views: readonly SavedView[]): void {
  localStorage.setItem(storageKey, JSON.stringify(views));
}

export interface SavedViewActions {
  /** The view on screen now. */
  current(): { collection: string; query: string };
  open(view: SavedView): void;
  /** Copies the page's link (the view is in its address). */
  share(): Promise<boolean>;
}

/** The saved views bar: the list, save under a name, delete, and copy a link to the view. */
export function savedViewsBar(actions: SavedViewActions): HTMLElement {
  const status = h('span', { class: 'help', id: 'views-status', attrs: { role: 'status', 'aria-live': 'polite' } });
  let name = '';
  const draw = (selected = ''): void => {
    const views = readViews();
    const list = select(
      'saved-view',
      [
        { value: '', label: views.length === 0 ? 'No saved views yet' : 'Choose a saved view…' },
        ...views.map((v) => ({ value: v.name, label: `${v.name} (${v.collection})` })),
      ],
      selected,
      (value) => {
        const view = readViews().find((v) => v.name === value);
        if (view !== undefined) actions.open(view);
        draw(value);
      },
    );
    list.disabled = views.length === 0;
    const remove = button(
      'Delete view',
      () => {
        writeViews(readViews().filter((v) => v.name !== list.value));
        status.textContent = `Deleted “${list.value}”.`;
        draw();
      },
      { id: 'delete-view', class: 'secondary' },
    );
    remove.disabled = list.value === '';
    const nameBox = input('view-name', name, (value) => {
      name = value;
      save.disabled = value.trim() === '';
    });
    const save = button(
      'Save view',
      () => {
        const trimmed = name.trim();
        if (trimmed === '') return;
        writeViews([...readViews().filter((v) => v.name !== trimmed), { name: trimmed, ...actions.current() }]);
        status.textContent = `Saved “${trimmed}” in this browser.`;
        name = '';
        draw(trimmed);
      },
      { id: 'save-view' },
    );
    save.disabled = name.trim() === '';
    const share = button(
      'Copy link to this view',
      () => {
        void actions.share().then((copied) => {
          status.textContent = copied ? 'Link copied.' : 'Could not copy: copy the address from the address bar.';
        });
      },
      { id: 'share-view' },
    );
    bar.replaceChildren(
      labelled('Saved views', list),
      h('div', { class: 'control end' }, remove),
      labelled('Name for this view', nameBox),
      h('div', { class: 'control end' }, save),
      h('div', { class: 'control end' }, share),
      status,
    );
  };
  const bar = h('div', { class: 'row views', attrs: { role: 'group', 'aria-label': 'Keep this view' } });
  draw();
  return bar;
}
