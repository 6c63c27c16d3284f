// The admin page's controller: loads the metadata, renders the form from the state, keeps the URL,
// curl command and condition in step with it, and runs or explains the request.
import { apiGet, describeFailure, type ApiResponse } from './api';
import { h } from './dom';
import { valueHints } from './form/value-hints';
import { expandSection } from './form/expand-form';
import { countSection } from './form/count-form';
import { hasSection } from './form/has-form';
import { matchSection } from './form/match-form';
import { pagingSection } from './form/paging-form';
import { scopeSections } from './form/scope-form';
import { readCollectionMeta, readIndexMeta, type CollectionMeta } from './meta';
import { copyText, element, installTabs, selectTab } from './page';
import { conditionsSection, type EditorContext } from './editor/filters';
import { exportable, exportBlocked, exportParams, fileName, saveFile } from './editor/export';
import { editorMessage } from './editor/messages';
import { valuePicks, type ValuePicks } from './editor/picks';
import { relatedSection } from './editor/related';
import { savedViewsBar } from './editor/saved-views';
import { summaryText } from './editor/summary';
import { sortBy, viewSection } from './editor/view';
import { normalisePrefix, servedPrefix } from './prefix';
import { breakable, curlCommand, conditionText } from './preview';
import { decodeQuery, readLocation } from './query/decode';
import { encodeForm, encodePart, toQueryString, type Param } from './query/encode';
import { clearResults, showExplain, showRun } from './results/show';
import type { TableView } from './results/table';
import { countedFields, emptyForm, type FormState } from './state';
import { ui } from './ui';

interface App {
  prefix: string;
  collections: readonly string[];
  meta: CollectionMeta | undefined;
  state: FormState | undefined;
  params: Param[];
  /** The developer view is open: the builder, the request and the raw answers. */
  developer: boolean;
  explain: boolean;
  picks: ValuePicks | undefined;
  /** The last run's answer, drawn again when the view changes between editor and developer. */
  lastRun: { response: ApiResponse; params: Param[] } | undefined;
}

const developerKey = 'koa-query-modifiers.admin.developer';

const app: App = {
  prefix: '/api',
  collections: [],
  meta: undefined,
  state: undefined,
  params: [],
  developer: localStorage.getItem(developerKey) === 'true',
  explain: false,
  picks: undefined,
  lastRun: undefined,
};

const token = (): string => ui.token.value;

function queryString(): string {
  return toQueryString(app.params);
}

function requestPath(kind: 'collection' | 'explain' = 'collection'): string {
  const collection = encodePart(app.state?.collection ?? '');
  const query = queryString();
  if (kind === 'explain') return `${app.prefix}/_explain/${collection}?${query}${query === '' ? '' : '&'}explain=plan`;
  return `${app.prefix}/${collection}${query === '' ? '' : `?${query}`}`;
}

/** Recomputes everything derived from the form: URL, curl, condition, and the page's own #hash. */
function refresh(): void {
  const { state, meta } = app;
  if (state === undefined || meta === undefined) return;
  app.params = encodeForm(state);
  const url = `${window.location.origin}${requestPath()}`;
  ui.url.replaceChildren(...breakable(url));
  const curl = curlCommand(url, token().trim() !== '');
  // Only the URL line wraps by parameter; the lines before it are kept as they are.
  const urlLine = curl.lastIndexOf('\n') + 1;
  ui.curl.replaceChildren(curl.slice(0, urlLine), ...breakable(curl.slice(urlLine)));
  ui.condition.textContent = conditionText(state, meta);
  ui.summary.textContent = summaryText(state, meta);
  const note = exportBlocked(state, meta);
  ui.exportCsv.disabled = !exportable(state, meta);
  ui.exportNote.textContent = note;
  const query = queryString();
  history.replaceState(null, '', `#${encodePart(state.collection)}${query === '' ? '' : `?${query}`}`);
}

/** A cursor records the request's sort, so any edit of the form starts the cursor pages again from the first. */
function restartCursor(): void {
  if (app.state !== undefined) app.state.paging.cursor = '';
}

const context: EditorContext = {
  changed: () => {
    restartCursor();
    refresh();
    // A value typed in the developer's builder shows on the editor's face too.
    if (ui.form.contains(document.activeElement)) renderEditor();
  },
  rebuild: (focusId?: string) => {
    restartCursor();
    renderForm(focusId);
  },
  get operators() {
    return app.meta?.operators ?? [];
  },
  get counted() {
    return app.state === undefined ? [] : countedFields(app.state);
  },
  hints: valueHints(() => `${app.prefix}/${encodePart(app.state?.collection ?? '')}`, token),
  get picks(): ValuePicks {
    return app.picks ?? { known: () => undefined, complete: () => false };
  },
};

/** The editor's face: conditions, related records, and how the list looks. */
function renderEditor(): void {
  const { state, meta } = app;
  if (state === undefined || meta === undefined) return;
  ui.editorForm.replaceChildren(
    ...[conditionsSection(state.root, meta, context), relatedSection(state, meta, context)].filter((s): s is HTMLElement => s !== null),
    viewSection(state, meta, context),
  );
}

/** Redraws the editor's face when a field's values arrive, unless the editor is typing in it. */
function valuesArrived(): void {
  const active = document.activeElement;
  if (active instanceof HTMLInputElement && ui.editorForm.contains(active)) return;
  const focused = active instanceof HTMLElement && ui.editorForm.contains(active) ? active.id : undefined;
  renderEditor();
  if (focused !== undefined) document.getElementById(focused)?.focus();
}

function renderForm(focusId?: string): void {
  const { state, meta } = app;
  if (state === undefined || meta === undefined) return;
  ui.form.replaceChildren(
    ...matchSection(state, meta, context),
    ...scopeSections(state.root, meta, context),
    ...[hasSection(state, meta, context), countSection(state, meta, context), expandSection(state, meta, context)].filter(
      (s): s is HTMLElement => s !== null,
    ),
    pagingSection(state, meta, context),
  );
  renderEditor();
  refresh();
  if (focusId !== undefined) document.getElementById(focusId)?.focus();
}

function showPageMessage(text: string): void {
  ui.pageMessage.textContent = text;
  ui.pageMessage.hidden = text === '';
}

let finishedRequests = 0;

async function request(path: string): Promise<ApiResponse | undefined> {
  ui.run.disabled = true;
  ui.explain.disabled = true;
  document.body.setAttribute('aria-busy', 'true');
  try {
    return await apiGet(path, token());
  } catch (error) {
    clearResults('The request did not reach the server.');
    ui.generalError.replaceChildren(h('p', { text: error instanceof Error ? error.message : String(error) }));
    ui.generalError.hidden = false;
    return undefined;
  } finally {
    ui.run.disabled = false;
    ui.explain.disabled = false;
    document.body.removeAttribute('aria-busy');
  }
}

/** Marks the end of a run or explain (after its results are on the page), for scripts and tests. */
function finished(): void {
  finishedRequests += 1;
  document.body.dataset.finished = String(finishedRequests);
}

/** Runs the request the form describes; the page links of the answer reload the form and run again. */
async function run(): Promise<void> {
  try {
    if (app.state === undefined) return;
    const params = app.params;
    clearResults('Running…');
    const response = await request(requestPath());
    if (response !== undefined) {
      app.lastRun = { response, params };
      showRun(response, params, (url) => void loadUrl(url, true), tableView());
    }
  } finally {
    finished();
  }
}

/** How the results table is drawn: raw for developers, labelled and formatted with sort buttons for editors. */
function tableView(): TableView {
  const { state, meta } = app;
  if (app.developer || state === undefined || meta === undefined) return {};
  const sort = state.root.sort.length === 1 ? state.root.sort[0] : undefined;
  return {
    scope: meta,
    ...(sort === undefined ? {} : { sort: { field: sort.field, direction: sort.direction } }),
    onSort: (field, direction) => {
      sortBy(state.root, field, direction);
      state.paging.page = '';
      restartCursor();
      renderForm();
      void run();
    },
  };
}

/** Opens or closes the developer view, remembered in this browser. */
function showDeveloper(on: boolean): void {
  app.developer = on;
  localStorage.setItem(developerKey, String(on));
  ui.developerToggle.checked = on;
  ui.developer.hidden = !on;
  ui.tabs.hidden = !on;
  ui.sqlTab.hidden = !app.explain;
  if (!on) selectTab('table');
  const last = app.lastRun;
  if (last !== undefined) showRun(last.response, last.params, (url) => void loadUrl(url, true), tableView());
}

/** Downloads the current view, every page of it, as CSV (the API names the file). */
async function exportCsv(): Promise<void> {
  const { state, meta } = app;
  if (state === undefined || meta === undefined || !exportable(state, meta)) return;
  const params = exportParams(app.params);
  ui.exportStatus.textContent = 'Preparing the file…';
  ui.exportCsv.disabled = true;
  try {
    const headers: Record<string, string> = { Accept: 'text/csv, application/problem+json' };
    if (token().trim() !== '') headers.Authorization = `Bearer ${token().trim()}`;
    const response = await fetch(`${app.prefix}/${encodePart(state.collection)}?${toQueryString(params)}`, { headers });
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { code?: string; detail?: string };
      ui.exportStatus.textContent = editorMessage(body.code ?? '', body.detail ?? '');
      return;
    }
    const name = fileName(response.headers.get('Content-Disposition'), state.collection);
    saveFile(await response.blob(), name);
    ui.exportStatus.textContent = `Downloaded ${name}.`;
  } catch {
    ui.exportStatus.textContent = 'The export did not reach the server; try again.';
  } finally {
    ui.exportCsv.disabled = !exportable(state, meta);
    finished();
  }
}

async function explain(): Promise<void> {
  try {
    if (app.state === undefined) return;
    const params = app.params;
    clearResults('Explaining…');
    const response = await request(requestPath('explain'));
    if (response !== undefined) showExplain(response, params);
  } finally {
    finished();
  }
}

/** The prefix and token of the last successful load of the collection list. */
let connectedWith = '';

async function loadIndex(): Promise<boolean> {
  const response = await apiGet(`${app.prefix}/_meta`, token()).catch(() => undefined);
  if (response === undefined || !response.ok) {
    const why = response === undefined ? 'the server did not answer' : describeFailure(response);
    const hint = response?.status === 401 ? ' Enter the bearer token above.' : response?.status === 404 ? ' Is the API prefix right?' : '';
    showPageMessage(`Could not list the collections at ${app.prefix}/_meta: ${why}.${hint}`);
    return false;
  }
  const index = readIndexMeta(response.body);
  app.collections = index.collections;
  ui.openapi.href = index.openapi ?? `${app.prefix}/openapi.json`;
  ui.explain.hidden = !index.explain;
  // Explain and its SQL tab appear only where the server lets this client explain.
  app.explain = index.explain;
  ui.sqlTab.hidden = !index.explain;
  ui.collection.replaceChildren(...app.collections.map((name) => h('option', { text: name, attrs: { value: name } })));
  ui.collection.disabled = false;
  showPageMessage('');
  connectedWith = `${app.prefix}\n${token()}`;
  return true;
}

async function loadMeta(collection: string): Promise<boolean> {
  const response = await apiGet(`${app.prefix}/_meta/${encodePart(collection)}`, token()).catch(() => undefined);
  if (response === undefined || !response.ok) {
    showPageMessage(
      `Could not read what ${collection} allows: ${response === undefined ? 'the server did not answer' : describeFailure(response)}`,
    );
    return false;
  }
  app.meta = readCollectionMeta(response.body);
  app.picks = valuePicks(app.meta, context.hints, valuesArrived);
  ui.collection.value = collection;
  return true;
}

async function chooseCollection(collection: string): Promise<void> {
  if (!(await loadMeta(collection))) return;
  app.state = emptyForm(collection);
  // Editors see a list page by page from the start; developers start from the bare request.
  if (!app.developer) app.state.paging.mode = 'pages';
  app.lastRun = undefined;
  clearResults('Press “Show records” to see the records.');
  renderForm();
}

/**
 * Rebuilds the form from a URL (pasted, from the #hash, or a page link); optionally runs it.
 * A link to this page itself (`.../admin/#users?...`) counts as the query after its `#`.
 */
async function loadUrl(pasted: string, runAfter: boolean): Promise<boolean> {
  const hashAt = pasted.indexOf('#');
  const text = hashAt !== -1 && pasted.slice(hashAt + 1).trim() !== '' ? pasted.slice(hashAt + 1) : pasted;
  const location = readLocation(text);
  if (location.prefix !== undefined && location.prefix !== app.prefix) {
    const previous = app.prefix;
    app.prefix = location.prefix;
    ui.prefix.value = location.prefix;
    if (!(await loadIndex())) {
      app.prefix = previous;
      ui.prefix.value = previous;
      await loadIndex();
      ui.pasteMessage.textContent = `No API answers at ${location.prefix || '/'}; the prefix stays ${previous}.`;
      return false;
    }
  }
  const collection = location.collection ?? app.state?.collection;
  if (collection === undefined || !app.collections.includes(collection)) {
    ui.pasteMessage.textContent = `No collection "${collection ?? ''}" here; the collections are ${app.collections.join(', ')}.`;
    return false;
  }
  if (app.meta?.name !== collection && !(await loadMeta(collection))) return false;
  const meta = app.meta;
  if (meta === undefined) return false;
  const decoded = decodeQuery(location.query, meta);
  app.state = decoded.state;
  ui.pasteMessage.textContent = decoded.ignored.length === 0 ? '' : `Left out: ${decoded.ignored.join('; ')}`;
  app.lastRun = undefined;
  clearResults(runAfter ? 'Running…' : 'Press “Show records” to see the records.');
  renderForm();
  if (runAfter) await run();
  return true;
}

/** After the prefix or token changed (Enter and leaving the field both report it; act once). */
async function reconnect(): Promise<void> {
  app.prefix = normalisePrefix(ui.prefix.value);
  ui.prefix.value = app.prefix;
  if (`${app.prefix}\n${token()}` === connectedWith) return;
  if (!(await loadIndex())) return;
  const current = app.state;
  const query = queryString();
  if (current !== undefined && app.collections.includes(current.collection)) await loadUrl(`${current.collection}?${query}`, false);
  else if (app.collections[0] !== undefined) await chooseCollection(app.collections[0]);
}

async function copy(what: 'URL' | 'curl command', text: string): Promise<void> {
  const copied = await copyText(text);
  ui.copyStatus.textContent = copied ? `${what} copied` : `Could not copy the ${what}; select it and copy by hand.`;
}

function install(): void {
  installTabs();
  ui.developerToggle.addEventListener('change', () => showDeveloper(ui.developerToggle.checked));
  ui.exportCsv.addEventListener('click', () => void exportCsv());
  ui.editorForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void run();
  });
  ui.editorForm.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && event.target instanceof HTMLInputElement && event.target.type !== 'checkbox') {
      event.preventDefault();
      void run();
    }
  });
  ui.savedViews.replaceChildren(
    savedViewsBar({
      current: () => ({ collection: app.state?.collection ?? '', query: queryString() }),
      open: (view) => void loadUrl(`${view.collection}?${view.query}`, true),
      share: () => copyText(window.location.href),
    }),
  );
  ui.collection.addEventListener('change', () => void chooseCollection(ui.collection.value));
  ui.prefix.addEventListener('change', () => void reconnect());
  ui.token.addEventListener('change', () => void reconnect());
  ui.token.addEventListener('input', refresh);
  element('settings-form', HTMLFormElement).addEventListener('submit', (event) => {
    event.preventDefault();
    void reconnect();
  });
  ui.form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run();
  });
  // The form has many text fields and no submit button, so browsers would not submit it on Enter.
  ui.form.addEventListener('keydown', (event) => {
    if (
      event.key === 'Enter' &&
      event.target instanceof HTMLInputElement &&
      event.target.type !== 'checkbox' &&
      event.target.type !== 'radio'
    ) {
      event.preventDefault();
      void run();
    }
  });
  ui.pasteForm.addEventListener('submit', (event) => {
    event.preventDefault();
    if (ui.paste.value.trim() !== '') void loadUrl(ui.paste.value, false);
  });
  ui.run.addEventListener('click', () => void run());
  ui.explain.addEventListener('click', () => void explain());
  element('copy-url', HTMLButtonElement).addEventListener('click', () => void copy('URL', ui.url.textContent));
  element('copy-curl', HTMLButtonElement).addEventListener('click', () => void copy('curl command', ui.curl.textContent));
}

async function start(): Promise<void> {
  install();
  showDeveloper(app.developer);
  app.prefix = servedPrefix(ui.prefix.value);
  ui.prefix.value = app.prefix;
  ui.openapi.href = `${app.prefix}/openapi.json`;
  ui.paste.placeholder = `${window.location.origin}${app.prefix}/users?sort[name]=desc`;
  if (!(await loadIndex())) return;
  const hash = window.location.hash.slice(1);
  const restored = hash !== '' && (await loadUrl(hash, false));
  if (!restored && app.collections[0] !== undefined) await chooseCollection(app.collections[0]);
}

// `data-ready` tells scripts (and the browser tests) that the first load has finished, well or not.
// A failure nothing above expected is shown on the page too, instead of only in the console.
void start()
  .catch((error: unknown) => {
    showPageMessage(`The page could not start: ${error instanceof Error ? error.message : 'an unknown error'}.`);
  })
  .finally(() => {
    document.body.dataset.ready = 'true';
  });
